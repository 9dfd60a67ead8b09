// runtime/softfloat.h against the host's own IEEE double arithmetic (x86
// SSE2: round to nearest even), over special values and a million random
// bit patterns and ordinary numbers.
extern "C" {
#include "../../runtime/softfloat.h"
}

#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace {

u64 bits(double d) {
  u64 u;
  std::memcpy(&u, &d, 8);
  return u;
}
double dbl(u64 u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}
// Same value, or both NaN (the payload is not compared).
bool same(u64 got, double want) {
  return std::isnan(want) ? stp_f64_is_nan(got) : got == bits(want);
}

std::vector<double> specials() {
  return {0.0, -0.0, 1.0, -1.0, 0.5, 1.5, 2.5, 3.0, 1e308, -1e308, 4.9e-324, -4.9e-324,
          2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
          INFINITY, -INFINITY, NAN, 0.1, 1.0 / 3, 9007199254740993.0, 4503599627370496.5,
          -7.25, 123456789.0, 1e-300, 6e-310};
}

// Random doubles: half arbitrary bit patterns (NaNs, subnormals, huge),
// half ordinary magnitudes.
std::vector<double> randoms(size_t n) {
  std::mt19937_64 rng(20261127);
  std::vector<double> out;
  for (size_t i = 0; i < n; ++i) {
    if (i % 2)
      out.push_back(dbl(rng()));
    else
      out.push_back(std::ldexp(static_cast<double>(rng() >> 11), static_cast<int>(rng() % 80) - 60) *
                    ((rng() & 1) ? -1 : 1));
  }
  return out;
}

TEST(Softfloat, ArithmeticIsTheHardwaresBitForBit) {
  ASSERT_EQ(std::fegetround(), FE_TONEAREST);
  std::vector<double> v = specials(), r = randoms(400000);
  v.insert(v.end(), r.begin(), r.end());
  int bad = 0;
  for (size_t i = 0; i + 1 < v.size() && bad < 10; ++i) {
    double a = v[i], b = v[i + 1];
    struct {
      const char *op;
      u64 got;
      double want;
    } checks[] = {
        {"+", stp_f64_add(bits(a), bits(b)), a + b},
        {"-", stp_f64_sub(bits(a), bits(b)), a - b},
        {"*", stp_f64_mul(bits(a), bits(b)), a * b},
        {"/", stp_f64_div(bits(a), bits(b)), a / b},
        {"sqrt", stp_f64_sqrt(bits(a)), std::sqrt(a)},
        {"rem", stp_f64_rem(bits(a), bits(b)), std::remainder(a, b)},
    };
    for (auto &c : checks)
      if (!same(c.got, c.want)) {
        ADD_FAILURE() << std::hexfloat << a << " " << c.op << " " << b << ": got " << dbl(c.got)
                      << ", want " << c.want;
        ++bad;
      }
    EXPECT_EQ(stp_f64_eq(bits(a), bits(b)), a == b);
    EXPECT_EQ(stp_f64_lt(bits(a), bits(b)), a < b);
    EXPECT_EQ(stp_f64_le(bits(a), bits(b)), a <= b);
  }
}

TEST(Softfloat, IntegerConversions) {
  std::mt19937_64 rng(7);
  std::vector<int64_t> ints = {0, 1, -1, INT64_MAX, INT64_MIN, (1LL << 53) + 1, -(1LL << 53) - 1};
  for (int i = 0; i < 100000; ++i)
    ints.push_back(static_cast<int64_t>(rng() >> (rng() % 64)) * ((rng() & 1) ? -1 : 1));
  for (int64_t n : ints)
    ASSERT_EQ(stp_f64_from_i64(n), bits(static_cast<double>(n))) << n;
  std::vector<double> v = specials(), r = randoms(100000);
  v.insert(v.end(), r.begin(), r.end());
  for (double d : v) {
    bool fits = std::isfinite(d) && d > -9223372036854775808.0 - 1 && d < 9223372036854775808.0;
    // 0: nearest even, 1: toward zero, 2: down, 3: up, 4: nearest away.
    double want[5] = {std::nearbyint(d), std::trunc(d), std::floor(d), std::ceil(d), std::round(d)};
    for (int mode = 0; mode < 5; ++mode) {
      s64 got = stp_f64_to_i64(bits(d), mode);
      if (fits && want[mode] >= -9223372036854775808.0 && want[mode] < 9223372036854775808.0)
        ASSERT_EQ(got, static_cast<s64>(want[mode])) << std::hexfloat << d << " mode " << mode;
      else
        ASSERT_EQ(got, INT64_MIN) << std::hexfloat << d << " mode " << mode;
    }
  }
  EXPECT_EQ(stp_f64_to_i64(bits(2.5), 6), 3);  // to odd
  EXPECT_EQ(stp_f64_to_i64(bits(-4.25), 6), -5);
  EXPECT_EQ(stp_f64_to_i64(bits(0.1), 6), 1);
}

TEST(Softfloat, Float32Widening) {
  std::mt19937 rng(3);
  for (int i = 0; i < 200000; ++i) {
    uint32_t u = rng();
    float f;
    std::memcpy(&f, &u, 4);
    ASSERT_TRUE(same(stp_f32_to_f64(u), static_cast<double>(f))) << std::hex << u;
  }
}

// printf("%.*f") rounds the exact binary value, ties to even; 4.8's
// f64_to_str rounds half up: they differ only on exact ties.
bool exact_tie(double d, int precision) {
  std::vector<char> buf(1500);
  std::snprintf(buf.data(), buf.size(), "%.1100f", std::fabs(d));
  std::string s = buf.data();
  size_t dot = s.find('.');
  if (dot + precision + 1 >= s.size() || s[dot + precision + 1] != '5')
    return false;
  return s.find_first_not_of('0', dot + precision + 2) == std::string::npos;
}

TEST(Softfloat, DecimalTextIsExactAndRoundsHalfUp) {
  char out[512];
  stp_f64_to_str(out, sizeof out, bits(-12.25), 3);
  EXPECT_STREQ(out, "-12.250");
  stp_f64_to_str(out, sizeof out, bits(0.125), 2);
  EXPECT_STREQ(out, "0.13"); // half up, as 4.8
  stp_f64_to_str(out, sizeof out, bits(9.996), 2);
  EXPECT_STREQ(out, "10.00");
  stp_f64_to_str(out, sizeof out, bits(1.0), 0);
  EXPECT_STREQ(out, "1.0");
  stp_f64_to_str(out, sizeof out, bits(-INFINITY), 2);
  EXPECT_STREQ(out, "-inf");
  stp_f64_to_str(out, sizeof out, bits(NAN), 2);
  EXPECT_STREQ(out, "nan");
  std::vector<double> v = specials(), r = randoms(20000);
  v.insert(v.end(), r.begin(), r.end());
  for (double d : v) {
    if (!std::isfinite(d))
      continue;
    for (int precision : {1, 6, 17, 40}) {
      stp_f64_to_str(out, sizeof out, bits(d), precision);
      std::vector<char> want(1500);
      std::snprintf(want.data(), want.size(), "%.*f", precision, d);
      if (std::string(out) != want.data() && !exact_tie(d, precision) &&
          std::string(want.data()).size() < sizeof out - 1)
        ADD_FAILURE() << std::hexfloat << d << " precision " << precision << ": got " << out
                      << ", want " << want.data();
    }
  }
}

TEST(Softfloat, DecimalTextIn) {
  u64 f;
  for (const char *s : {"0", "-0", "1", "3.14159", "-2.5e3", "1e22", "123456789012345678",
                        "0.000001", "+7.", ".5", "1E-5", "2.2250738585072014e-308", "1e-320",
                        "1e309", "12345678901234567890123"}) {
    ASSERT_EQ(stp_f64_from_str(s, &f), 0) << s;
    double want = std::strtod(s, nullptr);
    if (std::string(s).size() <= 20 || std::isinf(want))
      EXPECT_TRUE(same(f, want)) << s << ": got " << dbl(f) << ", want " << want;
    else
      EXPECT_NEAR(dbl(f), want, std::fabs(want) * 1e-15) << s;
  }
  for (const char *s : {"", "-", ".", "e5", "1e", "1x", " 1", "1.5.2", "0x10", "nan"})
    EXPECT_EQ(stp_f64_from_str(s, &f), -1) << s;
}

} // namespace
