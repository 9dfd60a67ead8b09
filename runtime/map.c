/* Associative arrays; see map.h. */

static unsigned stp_map_type_size(char t)
{
	return t == 's' ? ALIGN(MAXSTRINGLEN, 8) : t == 'x' ? sizeof(struct stp_stat) : 8;
}

int stp_map_init(struct stp_map *m)
{
	unsigned i, cpu, n;

	m->nkeys = strlen(m->key_types);
	m->key_size = 0;
	for (i = 0; i < m->nkeys; i++) {
		m->key_offset[i] = m->key_size;
		m->key_size += stp_map_type_size(m->key_types[i]);
	}
	m->value_size = stp_map_type_size(m->value_type);
	m->entry_size = ALIGN(sizeof(struct stp_map_entry) + m->key_size + m->value_size, 8);
	n = m->max_entries ? m->max_entries : MAXMAPENTRIES;
	m->max_entries = n;
	m->nbuckets = roundup_pow_of_two(n);
	m->count = 0;
	m->buckets = vzalloc(m->nbuckets * sizeof(*m->buckets));
	m->pool = vzalloc((size_t)n * m->entry_size);
	m->sorted = kcalloc(nr_cpu_ids, sizeof(*m->sorted), GFP_KERNEL);
	if (!m->buckets || !m->pool || !m->sorted)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		m->sorted[cpu] = vmalloc(n * sizeof(**m->sorted));
		if (!m->sorted[cpu])
			return -ENOMEM;
	}
	INIT_LIST_HEAD(&m->used);
	INIT_LIST_HEAD(&m->free);
	for (i = 0; i < n; i++) {
		struct stp_map_entry *e = (void *)(m->pool + (size_t)i * m->entry_size);
		list_add_tail(&e->order, &m->free);
	}
	return 0;
}

void stp_map_free(struct stp_map *m)
{
	unsigned cpu;
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

static u32 stp_map_hash(const struct stp_map *m, const char *key)
{
	u32 h = 0;
	unsigned i;
	for (i = 0; i < m->nkeys; i++) {
		const char *k = key + m->key_offset[i];
		if (m->key_types[i] == 's')
			h = jhash(k, strnlen(k, MAXSTRINGLEN), h);
		else
			h = jhash(k, 8, h);
	}
	return h;
}

static struct stp_map_entry *stp_map_find(struct stp_map *m, const void *key, u32 h)
{
	struct stp_map_entry *e;
	hlist_for_each_entry(e, &m->buckets[h & (m->nbuckets - 1)], hash_node)
		if (e->hash == h && memcmp(e->data, key, m->key_size) == 0)
			return e;
	return NULL;
}

static void stp_map_remove(struct stp_map *m, struct stp_map_entry *e)
{
	hlist_del(&e->hash_node);
	list_move_tail(&e->order, &m->free);
	m->count--;
}

void *stp_map_lookup(struct stp_map *m, const void *key)
{
	struct stp_map_entry *e = stp_map_find(m, key, stp_map_hash(m, key));
	return e ? stp_map_entry_value(m, e) : NULL;
}

void *stp_map_get(struct stp_context *c, struct stp_map *m, const void *key)
{
	u32 h = stp_map_hash(m, key);
	struct stp_map_entry *e = stp_map_find(m, key, h);

	if (e)
		return stp_map_entry_value(m, e);
	if (list_empty(&m->free)) {
		if (!m->wrap) {
			stp_error(c, "MAXMAPENTRIES exceeded (array full)");
			return NULL;
		}
		stp_map_remove(m, list_first_entry(&m->used, struct stp_map_entry, order));
	}
	e = list_first_entry(&m->free, struct stp_map_entry, order);
	list_move_tail(&e->order, &m->used);
	e->hash = h;
	e->seq = m->next_seq++;
	memcpy(e->data, key, m->key_size);
	memset(e->data + m->key_size, 0, m->value_size);
	hlist_add_head(&e->hash_node, &m->buckets[h & (m->nbuckets - 1)]);
	m->count++;
	return stp_map_entry_value(m, e);
}

void stp_map_delete(struct stp_map *m, const void *key)
{
	struct stp_map_entry *e = stp_map_find(m, key, stp_map_hash(m, key));
	if (e)
		stp_map_remove(m, e);
}

void stp_map_clear(struct stp_map *m)
{
	while (!list_empty(&m->used))
		stp_map_remove(m, list_first_entry(&m->used, struct stp_map_entry, order));
}

bool stp_map_matches(struct stp_map *m, struct stp_map_entry *e, const void *keyp,
		     unsigned wild)
{
	const char *key = keyp;
	unsigned i;
	for (i = 0; i < m->nkeys; i++) {
		unsigned off = m->key_offset[i];
		if (wild & (1u << i))
			continue;
		if (memcmp(e->data + off, key + off, stp_map_type_size(m->key_types[i])))
			return false;
	}
	return true;
}

void stp_map_delete_matching(struct stp_map *m, const void *key, unsigned wild)
{
	struct stp_map_entry *e, *next;
	list_for_each_entry_safe(e, next, &m->used, order)
		if (stp_map_matches(m, e, key, wild))
			stp_map_remove(m, e);
}

bool stp_map_exists_matching(struct stp_map *m, const void *key, unsigned wild)
{
	struct stp_map_entry *e;
	list_for_each_entry(e, &m->used, order)
		if (stp_map_matches(m, e, key, wild))
			return true;
	return false;
}

/* <0, 0, >0 as a orders before, with, after b by `column`. */
static int stp_map_cmp(struct stp_map *m, int column, struct stp_map_entry *a,
		       struct stp_map_entry *b)
{
	char t = column == 0 ? m->value_type : m->key_types[column - 1];
	unsigned off = column == 0 ? m->key_size : m->key_offset[column - 1];
	const char *x = a->data + off, *y = b->data + off;

	if (t == 's')
		return strncmp(x, y, MAXSTRINGLEN);
	if (t == 'x') /* statistics sort by their count */
		x += offsetof(struct stp_stat, count), y += offsetof(struct stp_stat, count);
	return *(const s64 *)x < *(const s64 *)y ? -1 : *(const s64 *)x > *(const s64 *)y;
}

/* Heap sort: in place, no recursion, bounded time. */
/* The foreach order: `dir` by `column`, ties in insertion order. */
static int stp_map_order(struct stp_map *m, int column, int dir, struct stp_map_entry *a,
			 struct stp_map_entry *b)
{
	int r = dir * stp_map_cmp(m, column, a, b);
	return r ? r : (a->seq > b->seq) - (a->seq < b->seq);
}

static void stp_map_sift(struct stp_map *m, struct stp_map_entry **v, unsigned root,
			 unsigned n, int column, int dir)
{
	for (;;) {
		unsigned child = 2 * root + 1;
		struct stp_map_entry *tmp;
		if (child >= n)
			return;
		if (child + 1 < n && stp_map_order(m, column, dir, v[child + 1], v[child]) > 0)
			child++;
		if (stp_map_order(m, column, dir, v[child], v[root]) <= 0)
			return;
		tmp = v[root];
		v[root] = v[child];
		v[child] = tmp;
		root = child;
	}
}

unsigned stp_map_sort(struct stp_map *m, int column, int dir, s64 limit)
{
	struct stp_map_entry **v = stp_map_sorted(m), *e;
	unsigned n = 0, i;

	list_for_each_entry(e, &m->used, order)
		v[n++] = e;
	if (dir && n > 1) {
		for (i = n / 2; i-- > 0;)
			stp_map_sift(m, v, i, n, column, dir);
		for (i = n - 1; i > 0; i--) {
			e = v[0];
			v[0] = v[i];
			v[i] = e;
			stp_map_sift(m, v, 0, i, column, dir);
		}
	}
	if (limit >= 0 && (u64)limit < n)
		n = (unsigned)limit;
	return n;
}
