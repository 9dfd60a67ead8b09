/* Associative arrays: preallocated hash tables.
 *
 * Keys are a fixed-size blob (each long key 8 bytes, each string key
 * MAXSTRINGLEN bytes, compared and hashed up to its NUL); values are
 * a long or a string. All entries are allocated at load (MAXMAPENTRIES, or
 * the array's declared size), so probe handlers never allocate. Insertion
 * order is kept for unsorted foreach and for `%` arrays, which drop their
 * oldest entry when full. Callers hold the array's global lock.
 *
 * Arrays of statistics are per-CPU: the array itself is the merged view,
 * and each CPU has its own share map (`cpu`) that `<<<` fills under the
 * read lock. stp_map_get() goes to this CPU's share; stp_map_lookup(),
 * stp_map_sort() and the `in` tests merge the shares (callers hold the
 * write lock); deletes apply to every share. See docs/runtime.md. */
#ifndef STP_MAP_H
#define STP_MAP_H

#ifndef MAXMAPENTRIES
#define MAXMAPENTRIES 2048
#endif
#define STP_MAX_KEYS 9

struct stp_map_entry {
	struct hlist_node hash_node;
	struct list_head order;   /* insertion order, or the free list */
	u32 hash;
	u64 seq;                  /* insertion number: ties sort in insertion order */
	char data[];              /* key blob, then the value */
};

struct stp_map {
	/* set by generated code */
	const char *key_types;    /* one char per key: 'n' long, 's' string */
	char value_type;          /* 'n' long, 's' string, 'x' statistics */
	unsigned max_entries;     /* 0: MAXMAPENTRIES */
	bool wrap;                /* `%`: full arrays drop their oldest entry */
	const struct stp_stat_desc *stat; /* value_type 'x': the statistics' shape */
	/* runtime state */
	unsigned nkeys, key_size, value_size, entry_size, nbuckets, count;
	u64 next_seq;
	unsigned key_offset[STP_MAX_KEYS];
	struct hlist_head *buckets;
	char *pool;
	struct list_head used, free;
	struct stp_map_entry ***sorted; /* per CPU: foreach's ordering buffer */
	/* statistics only */
	struct stp_map **cpu;     /* per CPU share maps (NULL in a share) */
	struct stp_map *parent;   /* in a share: the merged map */
	atomic64_t stat_seq;      /* insertion numbers across all shares */
	struct stp_stat *scratch; /* stp_map_lookup()'s merged element */
	bool agg_overflow;        /* the last merge had more keys than room */
};

int stp_map_init(struct stp_map *m);
void stp_map_free(struct stp_map *m);
/* The value of `key`, or NULL when absent. */
void *stp_map_lookup(struct stp_map *m, const void *key);
/* The value of `key`, added zeroed when absent; NULL (and an error) when
 * the array is full and does not wrap. */
void *stp_map_get(struct stp_context *c, struct stp_map *m, const void *key);
void stp_map_delete(struct stp_map *m, const void *key);
void stp_map_clear(struct stp_map *m);
/* Deletes every entry whose keys match `key` where `wild` (a bit per key)
 * is clear: `delete A[*, k]`. */
void stp_map_delete_matching(struct stp_map *m, const void *key, unsigned wild);
/* Whether entry `e` matches `key` outside the `wild` keys (foreach slices). */
bool stp_map_matches(struct stp_map *m, struct stp_map_entry *e, const void *key, unsigned wild);
/* Whether an entry matches `key` outside the `wild` keys: `[*, k] in A`. */
bool stp_map_exists_matching(struct stp_map *m, const void *key, unsigned wild);
/* Orders the entries for foreach: by `column` (0 = value, 1.. = key),
 * `dir` +1/-1 (0 = insertion order), at most `limit` (< 0: all). Returns
 * the count; the entries are in this CPU's buffer, stp_map_sorted(). */
unsigned stp_map_sort(struct stp_map *m, int column, int dir, s64 limit);
/* The same, statistics sorted by extractor `op` (see stp_stat_sort_value).
 * Should the CPUs' shares hold more distinct keys than the merged view has
 * room for, it is the error "aggregation overflow in NAME" (as in
 * SystemTap 4.8) and the count is 0; `%` arrays keep what fits. */
unsigned stp_map_sort_by(struct stp_context *c, struct stp_map *m, int column, int dir,
			 s64 limit, char op, const char *name);
static inline struct stp_map_entry **stp_map_sorted(struct stp_map *m)
{
	return m->sorted[smp_processor_id()];
}
static inline void *stp_map_entry_key(struct stp_map_entry *e)
{
	return e->data;
}
static inline void *stp_map_entry_value(struct stp_map *m, struct stp_map_entry *e)
{
	return e->data + m->key_size;
}

#endif /* STP_MAP_H */
