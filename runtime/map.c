/* Associative arrays; see map.h. */

static unsigned stp_map_type_size(char t)
{
	return t == 's' ? ALIGN(MAXSTRINGLEN, 8) : t == 'x' ? sizeof(struct stp_stat) : 8;
}

static int stp_map_init_shares(struct stp_map *m);

int stp_map_init(struct stp_map *m)
{
	unsigned i, cpu, n;

	m->nkeys = strlen(m->key_types);
	m->key_size = 0;
	for (i = 0; i < m->nkeys; i++) {
		m->key_offset[i] = m->key_size;
		m->key_size += stp_map_type_size(m->key_types[i]);
	}
	m->value_size = m->value_type == 'x' ? stp_stat_size(m->stat) : stp_map_type_size(m->value_type);
	m->entry_size = ALIGN(sizeof(struct stp_map_entry) + m->key_size + m->value_size, 8);
	n = m->max_entries ? m->max_entries : MAXMAPENTRIES;
	m->max_entries = n;
	INIT_LIST_HEAD(&m->used);
	INIT_LIST_HEAD(&m->free);
	if (n > (1u << 30)) /* roundup_pow_of_two() would overflow */
		return -ENOMEM;
	m->nbuckets = roundup_pow_of_two(n);
	m->count = 0;
	m->buckets = stp_vzalloc_array(m->nbuckets, sizeof(*m->buckets));
	m->pool = stp_vzalloc_array(n, m->entry_size);
	if (!m->buckets || !m->pool)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		struct stp_map_entry *e = (void *)(m->pool + (size_t)i * m->entry_size);
		list_add_tail(&e->order, &m->free);
	}
	if (m->parent)
		return 0; /* a share is never sorted or looked up by readers */
	m->sorted = kcalloc(nr_cpu_ids, sizeof(*m->sorted), GFP_KERNEL);
	if (!m->sorted)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		m->sorted[cpu] = stp_vzalloc_array(n, sizeof(**m->sorted));
		if (!m->sorted[cpu])
			return -ENOMEM;
	}
	if (m->value_type == 'x')
		return stp_map_init_shares(m);
	return 0;
}

void stp_map_free(struct stp_map *m)
{
	unsigned cpu;
	if (m->cpu) {
		for (cpu = 0; cpu < nr_cpu_ids; cpu++) {
			if (m->cpu[cpu])
				stp_map_free(m->cpu[cpu]);
			kfree(m->cpu[cpu]);
		}
		kfree(m->cpu);
		m->cpu = NULL;
	}
	vfree(m->scratch);
	m->scratch = NULL;
	if (m->sorted) {
		for (cpu = 0; cpu < nr_cpu_ids; cpu++)
			vfree(m->sorted[cpu]);
		kfree(m->sorted);
	}
	vfree(m->pool);
	vfree(m->buckets);
	m->sorted = NULL;
	m->pool = NULL;
	m->buckets = NULL;
}

/* The hash of a key blob; with `lens`, also each string key's length.
 * A string key is hashed with the dcache's word-at-a-time hash, which
 * finds its length in the same pass (strnlen() then jhash() were a fifth
 * of `a[execname()]++`'s instructions: bench/run/context-variants). Keys
 * are NUL-terminated within MAXSTRINGLEN: the generated code copies them
 * with stp_strcpy(), entries copy whole blobs. */
static __always_inline u32 stp_map_hash(const struct stp_map *m, const char *key, unsigned *lens)
{
	u32 h = 0;
	unsigned i;
	for (i = 0; i < m->nkeys; i++) {
		const char *k = key + m->key_offset[i];
		u32 kh;
		if (m->key_types[i] == 's') {
			u64 hl = hashlen_string(NULL, k);
			kh = hashlen_hash(hl);
			if (lens)
				lens[i] = hashlen_len(hl);
		} else {
			kh = hash_64(*(const u64 *)k, 32);
		}
		/* both spread their bits over all 32 (multiplicative, high
		 * half); the next key's mixes them again */
		h = i ? hash_64(((u64)h << 32) | kh, 32) : kh;
	}
	return h;
}

/* Whether key `i` of blobs `a` and `b` is the same. A string key is
 * compared up to its NUL: what follows it in its MAXSTRINGLEN bytes is not
 * part of the key (the generated code does not pad keys: bench/run). With
 * `lens` (b's lengths), a memcmp() of b's string and its NUL, which compares
 * words; else strncmp(), byte by byte. */
static inline bool stp_map_key_eq(const struct stp_map *m, unsigned i, const char *a, const char *b,
				  const unsigned *lens)
{
	unsigned off = m->key_offset[i];
	if (m->key_types[i] == 's')
		return lens ? memcmp(a + off, b + off, lens[i] + 1) == 0
			    : strncmp(a + off, b + off, MAXSTRINGLEN) == 0;
	return *(const s64 *)(a + off) == *(const s64 *)(b + off);
}

/* The entry of `key` (hash `h`), or NULL; `lens` as stp_map_hash() gives
 * them, or NULL. */
static __always_inline struct stp_map_entry *stp_map_find_len(struct stp_map *m, const void *key,
							      u32 h, const unsigned *lens)
{
	struct stp_map_entry *e;
	unsigned i;
	hlist_for_each_entry(e, &m->buckets[h & (m->nbuckets - 1)], hash_node) {
		if (e->hash != h)
			continue;
		for (i = 0; i < m->nkeys; i++)
			if (!stp_map_key_eq(m, i, e->data, key, lens))
				break;
		if (i == m->nkeys)
			return e;
	}
	return NULL;
}

static struct stp_map_entry *stp_map_find(struct stp_map *m, const void *key, u32 h)
{
	return stp_map_find_len(m, key, h, NULL);
}

static void stp_map_remove(struct stp_map *m, struct stp_map_entry *e)
{
	hlist_del(&e->hash_node);
	list_move_tail(&e->order, &m->free);
	m->count--;
}

static struct stp_map_entry *stp_map_lookup_entry(struct stp_map *m, const void *key)
{
	unsigned lens[STP_MAX_KEYS];
	u32 h = stp_map_hash(m, key, lens);
	return stp_map_find_len(m, key, h, lens);
}

static void *stp_map_merge_key(struct stp_map *m, const void *key);

void *stp_map_lookup(struct stp_map *m, const void *key)
{
	struct stp_map_entry *e;
	if (m->cpu)
		return stp_map_merge_key(m, key);
	e = stp_map_lookup_entry(m, key);
	return e ? stp_map_entry_value(m, e) : NULL;
}

/* A new zeroed entry for `key` (hash `h`); NULL when full. */
static struct stp_map_entry *stp_map_insert(struct stp_map *m, const void *key, u32 h)
{
	struct stp_map_entry *e;
	if (list_empty(&m->free)) {
		if (!m->wrap)
			return NULL;
		stp_map_remove(m, list_first_entry(&m->used, struct stp_map_entry, order));
	}
	e = list_first_entry(&m->free, struct stp_map_entry, order);
	list_move_tail(&e->order, &m->used);
	e->hash = h;
	/* statistics: one numbering over all CPUs' shares, so the merged
	 * view keeps the script's insertion order */
	e->seq = m->parent ? (u64)atomic64_inc_return(&m->parent->stat_seq) : m->next_seq++;
	memcpy(e->data, key, m->key_size);
	memset(e->data + m->key_size, 0, m->value_size);
	hlist_add_head(&e->hash_node, &m->buckets[h & (m->nbuckets - 1)]);
	m->count++;
	return e;
}

void *stp_map_get(struct stp_context *c, struct stp_map *m, const void *key)
{
	unsigned lens[STP_MAX_KEYS];
	u32 h;
	struct stp_map_entry *e;

	if (m->cpu) /* statistics: `<<<` goes to this CPU's share */
		m = m->cpu[smp_processor_id()];
	h = stp_map_hash(m, key, lens);
	e = stp_map_find_len(m, key, h, lens);
	if (e)
		return stp_map_entry_value(m, e);
	e = stp_map_insert(m, key, h);
	if (!e) {
		stp_error(c, "MAXMAPENTRIES exceeded (array full)");
		return NULL;
	}
	return stp_map_entry_value(m, e);
}

/* Runs `stmt` with `m` set to each CPU's share of a statistics array. */
#define stp_map_for_each_share(top, m, stmt)                                   \
	do {                                                                   \
		unsigned _cpu;                                                 \
		if ((top)->cpu)                                                \
			for_each_possible_cpu(_cpu) {                          \
				struct stp_map *m = (top)->cpu[_cpu];          \
				stmt;                                          \
			}                                                      \
	} while (0)

void stp_map_delete(struct stp_map *m, const void *key)
{
	struct stp_map_entry *e = stp_map_lookup_entry(m, key);
	if (e)
		stp_map_remove(m, e);
	stp_map_for_each_share(m, share, stp_map_delete(share, key));
}

static void stp_map_clear_entries(struct stp_map *m)
{
	while (!list_empty(&m->used))
		stp_map_remove(m, list_first_entry(&m->used, struct stp_map_entry, order));
}

void stp_map_clear(struct stp_map *m)
{
	stp_map_for_each_share(m, share, stp_map_clear(share));
	stp_map_clear_entries(m);
}

bool stp_map_matches(struct stp_map *m, struct stp_map_entry *e, const void *keyp,
		     unsigned wild)
{
	const char *key = keyp;
	unsigned i;
	for (i = 0; i < m->nkeys; i++)
		if (!(wild & (1u << i)) && !stp_map_key_eq(m, i, e->data, key, NULL))
			return false;
	return true;
}

void stp_map_delete_matching(struct stp_map *m, const void *key, unsigned wild)
{
	struct stp_map_entry *e, *next;
	list_for_each_entry_safe(e, next, &m->used, order)
		if (stp_map_matches(m, e, key, wild))
			stp_map_remove(m, e);
	stp_map_for_each_share(m, share, stp_map_delete_matching(share, key, wild));
}

bool stp_map_exists_matching(struct stp_map *m, const void *key, unsigned wild)
{
	struct stp_map_entry *e;
	stp_map_for_each_share(m, share, if (stp_map_exists_matching(share, key, wild)) return true);
	list_for_each_entry(e, &m->used, order)
		if (stp_map_matches(m, e, key, wild))
			return true;
	return false;
}

/* <0, 0, >0 as a orders before, with, after b by `column`. */
static int stp_map_cmp(struct stp_map *m, int column, char op, struct stp_map_entry *a,
		       struct stp_map_entry *b)
{
	char t = column == 0 ? m->value_type : m->key_types[column - 1];
	unsigned off = column == 0 ? m->key_size : m->key_offset[column - 1];
	const char *x = a->data + off, *y = b->data + off;

	if (t == 's')
		return strncmp(x, y, MAXSTRINGLEN);
	if (t == 'x') { /* statistics sort by an extractor, @count by default */
		s64 p = stp_stat_sort_value((const void *)x, op);
		s64 q = stp_stat_sort_value((const void *)y, op);
		return p < q ? -1 : p > q;
	}
	return *(const s64 *)x < *(const s64 *)y ? -1 : *(const s64 *)x > *(const s64 *)y;
}

/* Heap sort: in place, no recursion, bounded time. */
/* The foreach order: `dir` by `column`, ties in insertion order. */
static int stp_map_order(struct stp_map *m, int column, int dir, char op,
			 struct stp_map_entry *a, struct stp_map_entry *b)
{
	int r = dir * stp_map_cmp(m, column, op, a, b);
	return r ? r : (a->seq > b->seq) - (a->seq < b->seq);
}

static void stp_map_sift(struct stp_map *m, struct stp_map_entry **v, unsigned root,
			 unsigned n, int column, int dir, char op)
{
	for (;;) {
		unsigned child = 2 * root + 1;
		struct stp_map_entry *tmp;
		if (child >= n)
			return;
		if (child + 1 < n && stp_map_order(m, column, dir, op, v[child + 1], v[child]) > 0)
			child++;
		if (stp_map_order(m, column, dir, op, v[child], v[root]) <= 0)
			return;
		tmp = v[root];
		v[root] = v[child];
		v[child] = tmp;
		root = child;
	}
}

static void stp_map_aggregate(struct stp_map *m);

static unsigned stp_map_sort_entries(struct stp_map *m, int column, int dir, s64 limit, char op);

unsigned stp_map_sort(struct stp_map *m, int column, int dir, s64 limit)
{
	if (m->cpu)
		stp_map_aggregate(m);
	return stp_map_sort_entries(m, column, dir, limit, 'c');
}

unsigned stp_map_sort_by(struct stp_context *c, struct stp_map *m, int column, int dir,
			 s64 limit, char op, const char *name)
{
	if (m->cpu)
		stp_map_aggregate(m);
	if (unlikely(m->agg_overflow)) {
		snprintf(c->error_buf, sizeof(c->error_buf), "aggregation overflow in %s", name);
		stp_error(c, c->error_buf);
		return 0;
	}
	return stp_map_sort_entries(m, column, dir, limit, op);
}

static unsigned stp_map_sort_entries(struct stp_map *m, int column, int dir, s64 limit, char op)
{
	struct stp_map_entry **v = stp_map_sorted(m), *e;
	unsigned n = 0, i;

	list_for_each_entry(e, &m->used, order)
		v[n++] = e;
	if (dir && n > 1) {
		for (i = n / 2; i-- > 0;)
			stp_map_sift(m, v, i, n, column, dir, op);
		for (i = n - 1; i > 0; i--) {
			e = v[0];
			v[0] = v[i];
			v[i] = e;
			stp_map_sift(m, v, 0, i, column, dir, op);
		}
	}
	if (limit >= 0 && (u64)limit < n)
		n = (unsigned)limit;
	return n;
}

/* ---- arrays of statistics: per-CPU shares merged on read ---- */

static int stp_map_init_shares(struct stp_map *m)
{
	unsigned cpu;
	atomic64_set(&m->stat_seq, 0);
	m->scratch = vzalloc(m->value_size);
	m->cpu = kcalloc(nr_cpu_ids, sizeof(*m->cpu), GFP_KERNEL);
	if (!m->scratch || !m->cpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		struct stp_map *share = kzalloc(sizeof(*share), GFP_KERNEL);
		int rc;
		if (!share)
			return -ENOMEM;
		m->cpu[cpu] = share;
		share->key_types = m->key_types;
		share->value_type = 'x';
		share->max_entries = m->max_entries;
		share->wrap = m->wrap;
		share->stat = m->stat;
		share->parent = m;
		rc = stp_map_init(share);
		if (rc)
			return rc;
	}
	return 0;
}

/* `key`'s shares merged into m->scratch; NULL when no CPU has it. */
static void *stp_map_merge_key(struct stp_map *m, const void *key)
{
	const struct stp_stat_desc *d = m->stat;
	struct stp_stat *agg = m->scratch;
	bool found = false;
	unsigned cpu;

	memset(agg, 0, m->value_size);
	for_each_possible_cpu(cpu) {
		struct stp_map_entry *e = stp_map_lookup_entry(m->cpu[cpu], key);
		if (e) {
			stp_stat_merge(d, agg, stp_map_entry_value(m->cpu[cpu], e));
			found = true;
		}
	}
	if (!found)
		return NULL;
	if (d->variance) {
		agg->avg_s = div64_s64((s64)((u64)agg->sum << d->shift), agg->count);
		agg->m2 = 0;
		for_each_possible_cpu(cpu) {
			struct stp_map_entry *e = stp_map_lookup_entry(m->cpu[cpu], key);
			if (e)
				stp_stat_merge_variance(d, agg, stp_map_entry_value(m->cpu[cpu], e));
		}
	}
	stp_stat_merge_done(d, agg);
	return agg;
}

/* Rebuilds the merged view (m's own entries) from the shares, in the
 * order keys were first added on any CPU. Keys beyond the merged view's
 * capacity (possible only when CPUs saw different keys) are left out and
 * flagged in agg_overflow (not for `%` arrays, which drop entries anyway). */
static void stp_map_aggregate(struct stp_map *m)
{
	const struct stp_stat_desc *d = m->stat;
	struct stp_map_entry *e, *a;
	unsigned cpu;

	stp_map_clear_entries(m);
	m->agg_overflow = false;
	for_each_possible_cpu(cpu) {
		struct stp_map *share = m->cpu[cpu];
		list_for_each_entry(e, &share->used, order) {
			u32 h = e->hash;
			a = stp_map_find(m, e->data, h);
			if (!a) {
				bool wrap = m->wrap;
				m->wrap = false;
				a = stp_map_insert(m, e->data, h);
				m->wrap = wrap;
				if (!a) {
					m->agg_overflow = !wrap;
					continue;
				}
				a->seq = e->seq;
			}
			if (e->seq < a->seq)
				a->seq = e->seq;
			stp_stat_merge(d, stp_map_entry_value(m, a), stp_map_entry_value(share, e));
		}
	}
	list_for_each_entry(a, &m->used, order) {
		struct stp_stat *agg = stp_map_entry_value(m, a);
		if (d->variance) {
			agg->avg_s = div64_s64((s64)((u64)agg->sum << d->shift), agg->count);
			agg->m2 = 0;
			for_each_possible_cpu(cpu) {
				e = stp_map_find(m->cpu[cpu], a->data, a->hash);
				if (e)
					stp_stat_merge_variance(d, agg, stp_map_entry_value(m->cpu[cpu], e));
			}
		}
		stp_stat_merge_done(d, agg);
	}
}
