/* Statistics (`x <<< v`): per-CPU aggregates, merged when read.
 *
 * Each CPU accumulates into its own `struct stp_stat` (count, sum, min,
 * max, Welford terms for @variance, histogram buckets), so `<<<` needs
 * only the global's read lock and never touches another CPU's cache lines.
 * A read (an extractor, a printed histogram, foreach) merges every CPU's
 * share under the write lock, which excludes every `<<<` meanwhile.
 *
 * The translator describes each statistics global with one
 * `struct stp_stat_desc`: its histogram shape (checked at pass 2: one
 * shape per variable) and the @variance bit shift. */
#ifndef STP_STAT_H
#define STP_STAT_H

/* Buckets of a linear histogram, counting underflow and overflow. */
#ifndef STP_MAX_BUCKETS
#define STP_MAX_BUCKETS 128
#endif
#define STP_HIST_LOG_BUCKETS 128
#define STP_HIST_LOG_BUCKET0 64 /* the bucket of 0 */
/* Width of the bar column of a printed histogram. */
#ifndef HIST_WIDTH
#define HIST_WIDTH 50
#endif
/* Empty buckets next to a printed row are kept, runs beyond are one `~`
 * row; negative: never elide. */
#ifndef HIST_ELISION
#define HIST_ELISION 2
#endif

enum stp_hist_type { STP_HIST_NONE, STP_HIST_LOG, STP_HIST_LINEAR };

struct stp_stat_desc {
	enum stp_hist_type hist;
	s64 start, interval;  /* linear: the first bucket's value and its width */
	unsigned buckets;     /* 0 without histogram */
	bool variance;        /* @variance is used: keep the Welford terms */
	int shift;            /* @variance(x, shift): fixed point bits */
};

/* One CPU's share, or the merge of all of them. `count` comes first:
 * a statistics value read as a long is its count. */
struct stp_stat {
	s64 count, sum, min, max;
	s64 avg_s;       /* running mean << shift (Welford) */
	s64 m2;          /* sum of squared differences << 2*shift */
	s64 variance_s;  /* m2 / (count - 1) */
	s64 variance;    /* merged only: the @variance result */
	s64 hist[];      /* desc->buckets */
};

static inline size_t stp_stat_size(const struct stp_stat_desc *d)
{
	return sizeof(struct stp_stat) + (size_t)d->buckets * sizeof(s64);
}

/* The bucket of `v` in a log histogram: 0 in bucket 64, positive values
 * by their highest bit above it, negative ones mirrored below. */
static inline unsigned stp_hist_log_bucket(s64 v)
{
	u64 mag;
	if (v == 0)
		return STP_HIST_LOG_BUCKET0;
	mag = v < 0 ? (u64)0 - (u64)v : (u64)v;
	if (v < 0 && (s64)mag < 0) /* S64_MIN */
		return 0;
	return v > 0 ? STP_HIST_LOG_BUCKET0 + fls64(mag) : STP_HIST_LOG_BUCKET0 - fls64(mag);
}

/* The bucket of `v` in a linear histogram: 0 below start, buckets-1 at and
 * above start + (buckets-2) * interval. */
static inline unsigned stp_hist_linear_bucket(const struct stp_stat_desc *d, s64 v)
{
	u64 off;
	if (v < d->start)
		return 0;
	off = div64_u64((u64)v - (u64)d->start, (u64)d->interval) + 1;
	return off >= d->buckets - 1 ? d->buckets - 1 : (unsigned)off;
}

/* `<<<` into this CPU's share `s`. */
static inline void stp_stat_add(const struct stp_stat_desc *d, struct stp_stat *s, s64 v)
{
	if (!s->count) {
		s->count = 1;
		s->sum = s->min = s->max = v;
		s->avg_s = (s64)((u64)v << d->shift);
		s->m2 = 0;
		s->variance_s = 0;
	} else {
		s->count++;
		s->sum = (s64)((u64)s->sum + (u64)v);
		if (v < s->min)
			s->min = v;
		if (v > s->max)
			s->max = v;
		if (d->variance) {
			s64 scaled = (s64)((u64)v << d->shift);
			s64 delta = scaled - s->avg_s;
			s->avg_s += div64_s64(delta, s->count);
			s->m2 += delta * (scaled - s->avg_s);
			s->variance_s = div64_s64(s->m2, s->count - 1);
		}
	}
	if (d->hist == STP_HIST_LOG)
		s->hist[stp_hist_log_bucket(v)]++;
	else if (d->hist == STP_HIST_LINEAR)
		s->hist[stp_hist_linear_bucket(d, v)]++;
}

/* Adds CPU share `s` into `agg` (count, sum, min, max, buckets); the
 * variance needs a second pass over the shares, stp_stat_merge_variance. */
void stp_stat_merge(const struct stp_stat_desc *d, struct stp_stat *agg, const struct stp_stat *s);
void stp_stat_merge_variance(const struct stp_stat_desc *d, struct stp_stat *agg,
			     const struct stp_stat *s);
void stp_stat_merge_done(const struct stp_stat_desc *d, struct stp_stat *agg);

/* A scalar statistics global: one share per CPU and the merged result. */
struct stp_stat_var {
	const struct stp_stat_desc *desc;
	size_t stride;   /* bytes per CPU, cache-line aligned */
	char *cpu;       /* nr_cpu_ids shares */
	struct stp_stat *agg;
};

int stp_stat_var_init(struct stp_stat_var *v);
void stp_stat_var_free(struct stp_stat_var *v);
static inline struct stp_stat *stp_stat_var_cpu(struct stp_stat_var *v, unsigned cpu)
{
	return (struct stp_stat *)(v->cpu + (size_t)cpu * v->stride);
}
/* `x <<< val`: this CPU's share; the caller holds x's read lock. */
static inline void stp_stat_var_add(struct stp_stat_var *v, s64 val)
{
	stp_stat_add(v->desc, stp_stat_var_cpu(v, smp_processor_id()), val);
}
/* Every CPU's share merged into v->agg; the caller holds x's write lock. */
struct stp_stat *stp_stat_var_merge(struct stp_stat_var *v);
void stp_stat_var_clear(struct stp_stat_var *v);

/* Extractors of a merged aggregate (NULL: an absent array element, which
 * is empty): @count 'c', @sum 's', @min 'm', @max 'M', @avg 'a',
 * @variance 'v'. All but @count and @sum of an empty aggregate are a
 * run-time error, as in SystemTap. */
s64 stp_stat_extract(struct stp_context *c, const struct stp_stat *s, char op, const char *loc);
/* The value an aggregate sorts by in `foreach (k in A @op)`. */
s64 stp_stat_sort_value(const struct stp_stat *s, char op);

/* @hist_*(x)[i]: bucket i's count; out of range is a run-time error. */
s64 stp_stat_bucket(struct stp_context *c, const struct stp_stat_desc *d,
		    const struct stp_stat *s, s64 i, const char *loc);
/* print(@hist_*(x)): the ASCII bar chart SystemTap prints, to the probe's
 * output (str NULL) or appended to the MAXSTRINGLEN string `str` (sprint). */
void stp_stat_print_hist(struct stp_context *c, const struct stp_stat_desc *d,
			 const struct stp_stat *s, char *str);

#endif /* STP_STAT_H */
