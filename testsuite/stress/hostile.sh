# hostile.sh MODULE SCALE: hostile.c makes 200 calls of each kind (5,000 at
# full scale); every read must give exactly what the table below says, for
# every call: the right string, or a run-time error.
. ./lib.sh
mod=$1
n=200
[ "$2" = full ] && n=5000
staprun -c "$BUILD/hostile $n" "$mod" > out 2> err
status=$?
[ $status = 0 ] || fail "staprun exited $status: $(head -5 err)"
expect() { # WHAT ok|error
  line=$(grep -F "$1 $2 " out) || fail "no '$1 $2' line; output:
$(cat out)"
  set -- $line
  [ "$3" = "$n" ] || fail "$1 $2 $3 times of $n"
}
expect "u:user_string(s)" ok
expect "u:kernel_string(s)" error
expect "u:user_string(task)" error
expect "u:user_string(0)" error
expect "u:user_string(-4096)" error
casts=0
if [ "$(uname -m)" = x86_64 ]; then # @cast needs BTF: x86_64 only
  expect "u:@cast(task)->pid" ok
  expect "u:@cast(s)->pid" error
  expect "u:@cast(0)->pid" error
  expect "k:@cast(0)->comm" error
  expect "k:@cast(\$buf)->pid" error
  casts=5
fi
expect "k:user_string(\$buf)" ok
expect "k:kernel_string(\$buf)" error
expect "k:kernel_string(0)" error
expect "k:kernel_string(-4096)" error
expect "k:user_string(task)" error
lines=$((10 + casts))
[ "$(wc -l < out)" = $lines ] || fail "unexpected tallies:
$(cat out)"
echo "figure: calls=$n reads=$((lines * n)) errors=$(((lines - 2 - casts / 5) * n))"
sed 's/^/  /' out
echo ok
