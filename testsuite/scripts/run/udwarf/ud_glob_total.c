/* A global of ud_glob that another of its files defines: ud_glob.c only
 * declares it (`extern`), and $other_total in its functions still finds
 * it, through the program's symbol, as SystemTap finds it. */
int other_total = 7;
