/* Statistics: merging CPU shares, extractors, histogram printing; see stat.h. */

void stp_stat_merge(const struct stp_stat_desc *d, struct stp_stat *agg, const struct stp_stat *s)
{
	unsigned i;
	if (!s->count)
		return;
	if (!agg->count || s->min < agg->min)
		agg->min = s->min;
	if (!agg->count || s->max > agg->max)
		agg->max = s->max;
	agg->count += s->count;
	agg->sum = (s64)((u64)agg->sum + (u64)s->sum);
	for (i = 0; i < d->buckets; i++)
		agg->hist[i] += s->hist[i];
}

/* The variance of the whole from each share's mean and variance (the
 * "total variance" formula SystemTap uses): first the mean of all, then
 * each share's distance to it. */
void stp_stat_merge_variance(const struct stp_stat_desc *d, struct stp_stat *agg,
			     const struct stp_stat *s)
{
	s64 diff;
	if (!s->count || !d->variance)
		return;
	diff = s->avg_s - agg->avg_s;
	agg->m2 += s->count * diff * diff + (s->count - 1) * s->variance_s;
}

void stp_stat_merge_done(const struct stp_stat_desc *d, struct stp_stat *agg)
{
	agg->variance_s = agg->count > 1 ? div64_s64(agg->m2, agg->count - 1) : 0;
	agg->variance = agg->variance_s >> (2 * d->shift);
}

static void stp_stat_begin_variance(const struct stp_stat_desc *d, struct stp_stat *agg)
{
	agg->avg_s = agg->count ? div64_s64((s64)((u64)agg->sum << d->shift), agg->count) : 0;
	agg->m2 = 0;
}

int stp_stat_var_init(struct stp_stat_var *v)
{
	v->stride = ALIGN(stp_stat_size(v->desc), L1_CACHE_BYTES);
	v->cpu = vzalloc((size_t)nr_cpu_ids * v->stride);
	v->agg = vzalloc(stp_stat_size(v->desc));
	return v->cpu && v->agg ? 0 : -ENOMEM;
}

void stp_stat_var_free(struct stp_stat_var *v)
{
	vfree(v->cpu);
	vfree(v->agg);
	v->cpu = NULL;
	v->agg = NULL;
}

struct stp_stat *stp_stat_var_merge(struct stp_stat_var *v)
{
	unsigned cpu;
	memset(v->agg, 0, stp_stat_size(v->desc));
	for_each_possible_cpu(cpu)
		stp_stat_merge(v->desc, v->agg, stp_stat_var_cpu(v, cpu));
	if (v->desc->variance) {
		stp_stat_begin_variance(v->desc, v->agg);
		for_each_possible_cpu(cpu)
			stp_stat_merge_variance(v->desc, v->agg, stp_stat_var_cpu(v, cpu));
	}
	stp_stat_merge_done(v->desc, v->agg);
	return v->agg;
}

void stp_stat_var_clear(struct stp_stat_var *v)
{
	memset(v->cpu, 0, (size_t)nr_cpu_ids * v->stride);
}

s64 stp_stat_extract(struct stp_context *c, const struct stp_stat *s, char op, const char *loc)
{
	s64 n = s ? s->count : 0;
	if (op == 'c')
		return n;
	if (op == 's')
		return n ? s->sum : 0;
	if (!n) {
		c->error_loc = loc;
		stp_error(c, "empty aggregate");
		return 0;
	}
	return stp_stat_sort_value(s, op);
}

s64 stp_stat_sort_value(const struct stp_stat *s, char op)
{
	switch (op) {
	case 's': return s->sum;
	case 'm': return s->min;
	case 'M': return s->max;
	case 'a': return div64_s64(s->sum, s->count);
	case 'v': return s->variance;
	default: return s->count;
	}
}

s64 stp_stat_bucket(struct stp_context *c, const struct stp_stat_desc *d,
		    const struct stp_stat *s, s64 i, const char *loc)
{
	if (i < 0 || i >= d->buckets) {
		c->error_loc = loc;
		stp_error(c, "histogram index out of range");
		return 0;
	}
	return s ? s->hist[i] : 0;
}

/* ---- printing ---- */

/* Characters of `v` in decimal. */
static int stp_digits(s64 v)
{
	int n = v < 0 ? 2 : 1;
	u64 m = v < 0 ? (u64)0 - (u64)v : (u64)v;
	while (m >= 10) {
		m = div_u64(m, 10);
		n++;
	}
	return n;
}

/* The lower bound of log bucket `b`. */
static s64 stp_hist_log_value(unsigned b)
{
	if (b == STP_HIST_LOG_BUCKET0)
		return 0;
	if (b < STP_HIST_LOG_BUCKET0)
		return (s64)(~0ULL << (63 - b)); /* -(2^(63-b)) */
	return (s64)(1ULL << (b - STP_HIST_LOG_BUCKET0 - 1));
}

/* The lower bound of linear bucket `b` (0: underflow, shown as `<start`;
 * the last: overflow, shown as `>` the last in-range value). */
static s64 stp_hist_linear_value(const struct stp_stat_desc *d, unsigned b)
{
	if (b == 0)
		return d->start;
	if (b == d->buckets - 1)
		b--;
	return d->start + (s64)(b - 1) * d->interval;
}

static s64 stp_hist_row_value(const struct stp_stat_desc *d, unsigned b)
{
	return d->hist == STP_HIST_LOG ? stp_hist_log_value(b) : stp_hist_linear_value(d, b);
}

static void stp_print_repeat(struct stp_context *c, char *str, char ch, int n)
{
	char run[HIST_WIDTH + 1];
	int k = min(n, HIST_WIDTH);
	memset(run, ch, k);
	run[k] = '\0';
	stp_out_printf(c, str, "%s", run);
}

/* Rows from `lo` to `hi`: the buckets with samples and up to two empty
 * ones on each side (not below 0 for a log histogram without negative
 * samples, not the empty underflow/overflow rows of a linear one); runs of
 * empty rows farther than HIST_ELISION from a sample become one `~` row.
 * Bars are scaled so the largest is at most HIST_WIDTH `@`s. */
void stp_stat_print_hist(struct stp_context *c, const struct stp_stat_desc *d,
			 const struct stp_stat *s, char *str)
{
	int lo = -1, hi = 0, i, k, vwidth, cwidth;
	bool under = false, over = false, eliding = false;
	s64 most = 0, scale;
	int nb = (int)d->buckets;

	if (d->hist == STP_HIST_NONE)
		return;
	for (i = 0; i < nb; i++) {
		if (s->hist[i] > 0) {
			if (lo < 0)
				lo = i;
			hi = i;
		}
		if (s->hist[i] > most)
			most = s->hist[i];
	}
	for (i = 0; i < 2; i++) {
		if (d->hist == STP_HIST_LOG) {
			if (lo != STP_HIST_LOG_BUCKET0 && lo > 0)
				lo--;
		} else if (lo > 0) {
			lo--;
		}
		if (hi < nb - 1)
			hi++;
	}
	if (d->hist == STP_HIST_LINEAR) {
		if (lo == 0 && s->hist[0] == 0)
			lo++;
		if (hi == nb - 1 && s->hist[hi] == 0)
			hi--;
		under = lo == 0;
		over = hi == nb - 1;
	}
	scale = most <= HIST_WIDTH ? 1 : div64_s64(most + HIST_WIDTH - 1, HIST_WIDTH);
	cwidth = stp_digits(most);
	if (d->hist == STP_HIST_LINEAR)
		vwidth = max(stp_digits(d->start) + under,
			     stp_digits(d->start + d->interval * hi) + over);
	else
		vwidth = max(stp_digits(stp_hist_log_value(hi)), stp_digits(stp_hist_log_value(lo)));
	vwidth = max(vwidth, 5);

	stp_out_printf(c, str, "%*s |", vwidth, "value");
	stp_print_repeat(c, str, '-', HIST_WIDTH);
	stp_out_printf(c, str, " count\n");
	for (i = lo; i <= hi; i++) {
		const char *mark = "";
		s64 v, bar;
		if ((long)HIST_ELISION >= 0) {
			int reach = min_t(long, HIST_ELISION, nb);
			int from = max(lo, i - reach), to = min(hi, i + reach);
			bool empty = true;
			for (k = from; k <= to; k++)
				if (s->hist[k])
					empty = false;
			if (empty) {
				eliding = true;
				continue;
			}
			if (eliding) {
				stp_out_printf(c, str, "%*s ~\n", vwidth, "");
				eliding = false;
			}
		}
		if (d->hist == STP_HIST_LINEAR && i == 0)
			mark = "<";
		else if (d->hist == STP_HIST_LINEAR && i == nb - 1)
			mark = ">";
		v = stp_hist_row_value(d, i);
		stp_out_printf(c, str, "%*s%lld |", vwidth - stp_digits(v), mark, (long long)v);
		bar = div64_s64(s->hist[i], scale);
		stp_print_repeat(c, str, '@', (int)bar);
		stp_out_printf(c, str, "%*lld\n", (int)(HIST_WIDTH - bar + 1 + cwidth), (long long)s->hist[i]);
	}
	stp_out_printf(c, str, "\n");
}
