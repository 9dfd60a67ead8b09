/* `=~` and `!~`: the translator compiles each ERE into a Pike VM program
 * (static tables in the generated code); this runs it and keeps what the
 * last successful match captured for matched() and ngroups(). */

s64 stp_regex_match(struct stp_context *c, const struct stp_rx_prog *p, const char *s, int *ws)
{
	int caps[STP_RX_MAXSLOTS];

	if (unlikely(c->last_error))
		return 0;
	if (!stp_rx_exec(p, s, ws, caps))
		return 0;
	strscpy(c->rx_subject, s, MAXSTRINGLEN);
	memcpy(c->rx_caps, caps, p->nslots * sizeof(int));
	c->rx_nslots = p->nslots;
	return 1;
}
