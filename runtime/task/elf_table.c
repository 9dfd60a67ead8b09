/* The ELF-image table builder; see elf_table.h. Mirrors
 * translator/symtab/{unwind_table,fde_index,symbol_index,elf_image}.cpp so
 * that both give the same bytes for the same image (the host test checks
 * it). No recursion; every loop is bounded by the image's sizes. */
#include "elf_table.h"
#include "uw_cfi.h"
#include "uw_eh_hdr.h"
#include "uw_table.h"

#define STP_ET_EM_386 3
#define STP_ET_EM_X86_64 62
#define STP_ET_PT_LOAD 1
#define STP_ET_SHT_SYMTAB 2
#define STP_ET_SHT_NOBITS 8
#define STP_ET_SHT_DYNSYM 11
#define STP_ET_SHN_UNDEF 0
#define STP_ET_STT_FUNC 2
#define STP_ET_STT_GNU_IFUNC 10
#define STP_ET_STB_GLOBAL 1
#define STP_ET_STB_WEAK 2

/* The image and its class: field offsets differ between ELF32 and ELF64. */
struct stp_et_elf {
	const uw_u8 *img;
	uw_u32 len;
	int is64;
};

/* A section's bytes (NULL when absent, NOBITS or out of the image). */
struct stp_et_sect {
	const uw_u8 *data;
	uw_u32 len;
	uw_u64 vaddr;
	uw_u32 name, type, link, entsize;
};

struct stp_et_fde {
	uw_u64 pc;
	uw_u32 ref;
};

struct stp_et_sym {
	uw_u64 value, size;
	const char *name;
	uw_u32 name_len;
	uw_u8 binding;
	uw_u8 from_symtab;
	uw_u32 name_off; /* in the table's string pool */
};

static int stp_et_in(const struct stp_et_elf *e, uw_u64 off, uw_u64 n)
{
	return off <= e->len && n <= e->len - off;
}

static uw_u64 stp_et_get(const struct stp_et_elf *e, uw_u64 off, unsigned size)
{
	uw_u64 v = 0;
	unsigned i;
	if (!stp_et_in(e, off, size))
		return 0;
	for (i = 0; i < size; i++)
		v |= (uw_u64)e->img[off + i] << (8 * i);
	return v;
}

/* A field that is 4 bytes in ELF32 and 8 in ELF64. */
static uw_u64 stp_et_word(const struct stp_et_elf *e, uw_u64 off)
{
	return stp_et_get(e, off, e->is64 ? 8 : 4);
}

/* Section i's header; 0, or -1 if it lies outside the image. */
static int stp_et_section(const struct stp_et_elf *e, uw_u32 i, struct stp_et_sect *s)
{
	uw_u64 shoff = stp_et_word(e, e->is64 ? 40 : 32);
	uw_u32 shentsize = (uw_u32)stp_et_get(e, e->is64 ? 58 : 46, 2);
	uw_u64 h = shoff + (uw_u64)i * shentsize, off, size;

	if (shentsize < (e->is64 ? 64u : 40u) || !stp_et_in(e, h, shentsize))
		return -1;
	s->name = (uw_u32)stp_et_get(e, h, 4);
	s->type = (uw_u32)stp_et_get(e, h + 4, 4);
	s->vaddr = stp_et_word(e, h + (e->is64 ? 16 : 12));
	off = stp_et_word(e, h + (e->is64 ? 24 : 16));
	size = stp_et_word(e, h + (e->is64 ? 32 : 20));
	s->link = (uw_u32)stp_et_get(e, h + (e->is64 ? 40 : 24), 4);
	s->entsize = (uw_u32)stp_et_word(e, h + (e->is64 ? 56 : 36));
	s->data = 0;
	s->len = 0;
	if (s->type != STP_ET_SHT_NOBITS && size && stp_et_in(e, off, size)) {
		s->data = e->img + off;
		s->len = (uw_u32)size;
	}
	return 0;
}

static uw_u32 stp_et_shnum(const struct stp_et_elf *e)
{
	return (uw_u32)stp_et_get(e, e->is64 ? 60 : 48, 2);
}

/* The NUL-terminated string at off of a string section, or NULL. */
static const char *stp_et_str(const struct stp_et_sect *strtab, uw_u64 off, uw_u32 *len)
{
	uw_u64 i;
	if (!strtab->data || off >= strtab->len)
		return 0;
	for (i = off; i < strtab->len; i++)
		if (!strtab->data[i]) {
			*len = (uw_u32)(i - off);
			return (const char *)strtab->data + off;
		}
	return 0;
}

/* The first section called `name` (as libelf's lookup by name finds it). */
static int stp_et_find(const struct stp_et_elf *e, const char *name, struct stp_et_sect *out)
{
	uw_u32 i, n = stp_et_shnum(e), shstrndx = (uw_u32)stp_et_get(e, e->is64 ? 62 : 50, 2);
	struct stp_et_sect names, sect;

	if (shstrndx >= n || stp_et_section(e, shstrndx, &names))
		return -1;
	for (i = 0; i < n; i++) {
		uw_u32 len, k;
		const char *s;
		if (stp_et_section(e, i, &sect))
			continue;
		s = stp_et_str(&names, sect.name, &len);
		if (!s)
			continue;
		for (k = 0; name[k] && k < len && s[k] == name[k]; k++)
			;
		if (k == len && !name[k]) {
			*out = sect;
			return 0;
		}
	}
	return -1;
}

/* The lowest PT_LOAD page: what the table's offsets are relative to. */
static uw_u64 stp_et_load_base(const struct stp_et_elf *e)
{
	uw_u64 phoff = stp_et_word(e, e->is64 ? 32 : 28), base = 0;
	uw_u32 phentsize = (uw_u32)stp_et_get(e, e->is64 ? 54 : 42, 2);
	uw_u32 phnum = (uw_u32)stp_et_get(e, e->is64 ? 56 : 44, 2), i;
	int first = 1;

	for (i = 0; i < phnum; i++) {
		uw_u64 h = phoff + (uw_u64)i * phentsize, page;
		if (!stp_et_in(e, h, phentsize) || stp_et_get(e, h, 4) != STP_ET_PT_LOAD)
			continue;
		page = stp_et_word(e, h + (e->is64 ? 16 : 8)) & ~(uw_u64)0xfff;
		if (first || page < base)
			base = page;
		first = 0;
	}
	return base;
}

/* ---- sorting: heap sort, no recursion, O(n log n) ---- */

typedef int (*stp_et_less_fn)(const void *a, const void *b);

static void stp_et_swap(uw_u8 *a, uw_u8 *b, unsigned size)
{
	unsigned i;
	for (i = 0; i < size; i++) {
		uw_u8 t = a[i];
		a[i] = b[i];
		b[i] = t;
	}
}

static void stp_et_sift(uw_u8 *arr, unsigned size, uw_u32 root, uw_u32 n, stp_et_less_fn less)
{
	for (;;) {
		uw_u32 child = 2 * root + 1;
		if (child >= n)
			return;
		if (child + 1 < n && less(arr + (uw_u64)child * size, arr + (uw_u64)(child + 1) * size))
			child++;
		if (!less(arr + (uw_u64)root * size, arr + (uw_u64)child * size))
			return;
		stp_et_swap(arr + (uw_u64)root * size, arr + (uw_u64)child * size, size);
		root = child;
	}
}

static void stp_et_sort(void *base, uw_u32 n, unsigned size, stp_et_less_fn less)
{
	uw_u8 *arr = base;
	uw_u32 i;
	if (n < 2)
		return;
	for (i = n / 2; i-- > 0;)
		stp_et_sift(arr, size, i, n, less);
	for (i = n - 1; i > 0; i--) {
		stp_et_swap(arr, arr + (uw_u64)i * size, size);
		stp_et_sift(arr, size, 0, i, less);
	}
}

/* By pc; equal pcs in section order (the translator's stable sort). */
static int stp_et_fde_less(const void *pa, const void *pb)
{
	const struct stp_et_fde *a = pa, *b = pb;
	return a->pc != b->pc ? a->pc < b->pc : a->ref < b->ref;
}

static int stp_et_binding_rank(uw_u8 b)
{
	return b == STP_ET_STB_GLOBAL ? 0 : b == STP_ET_STB_WEAK ? 1 : 2;
}

static int stp_et_name_cmp(const struct stp_et_sym *a, const struct stp_et_sym *b)
{
	uw_u32 i;
	for (i = 0; i < a->name_len && i < b->name_len; i++)
		if (a->name[i] != b->name[i])
			return (uw_u8)a->name[i] < (uw_u8)b->name[i] ? -1 : 1;
	return a->name_len == b->name_len ? 0 : a->name_len < b->name_len ? -1 : 1;
}

/* "name@VERSION": a symbol-version alias of an unversioned symbol. */
static int stp_et_versioned(const struct stp_et_sym *s)
{
	uw_u32 i;
	for (i = 0; i < s->name_len; i++)
		if (s->name[i] == '@')
			return 1;
	return 0;
}

/* By address, then the preferred symbol first: sized, unversioned, from
 * .symtab, global over weak over local, shorter name, then by name (as
 * translator/symtab/symbol_index.cpp). */
static int stp_et_sym_less(const void *pa, const void *pb)
{
	const struct stp_et_sym *a = pa, *b = pb;
	if (a->value != b->value)
		return a->value < b->value;
	if ((a->size == 0) != (b->size == 0))
		return a->size != 0;
	if (stp_et_versioned(a) != stp_et_versioned(b))
		return !stp_et_versioned(a);
	if (a->from_symtab != b->from_symtab)
		return a->from_symtab;
	if (stp_et_binding_rank(a->binding) != stp_et_binding_rank(b->binding))
		return stp_et_binding_rank(a->binding) < stp_et_binding_rank(b->binding);
	if (a->name_len != b->name_len)
		return a->name_len < b->name_len;
	return stp_et_name_cmp(a, b) < 0;
}

/* ---- the FDE index ---- */

/* From .eh_frame_hdr, if every entry names a parseable FDE that starts
 * where the entry says. Returns the count, or -1 to walk instead. */
static long stp_et_fdes_from_hdr(const struct stp_et_sect *hdr, const struct uw_cfi_section *eh,
				 unsigned addr_size, struct stp_et_fde *out, uw_u32 cap)
{
	struct uw_eh_hdr h;
	uw_u32 i, n = 0;

	if (!hdr->data || uw_eh_hdr_open(&h, hdr->data, hdr->len, hdr->vaddr, addr_size))
		return -1;
	for (i = 0; i < h.count; i++) {
		uw_u64 pc, fde_addr;
		struct uw_fde fde;
		uw_u32 off;
		if (uw_eh_hdr_entry(&h, i, &pc, &fde_addr) || fde_addr < eh->vaddr ||
		    fde_addr - eh->vaddr >= eh->len)
			return -1;
		off = (uw_u32)(fde_addr - eh->vaddr);
		if (uw_cfi_parse_fde(eh, off, &fde) || fde.pc_begin != pc)
			return -1;
		if (fde.pc_end > fde.pc_begin) {
			if (n == cap)
				return -1;
			out[n].pc = fde.pc_begin;
			out[n].ref = off;
			n++;
		}
	}
	return n;
}

/* Every FDE of .eh_frame, in section order; the count or STP_ET_EBADCFI. */
static long stp_et_fdes_walk(const struct uw_cfi_section *eh, struct stp_et_fde *out, uw_u32 cap)
{
	uw_u32 off = 0, n = 0;

	while (off < eh->len) {
		int kind;
		uw_u32 next;
		struct uw_fde fde;
		if (uw_cfi_record(eh, off, &kind, &next) || next <= off)
			return STP_ET_EBADCFI;
		if (kind == UW_REC_TERMINATOR)
			break;
		if (kind == UW_REC_FDE) {
			if (uw_cfi_parse_fde(eh, off, &fde))
				return STP_ET_EBADCFI;
			if (fde.pc_end > fde.pc_begin) {
				if (n == cap)
					return STP_ET_EBADCFI;
				out[n].pc = fde.pc_begin;
				out[n].ref = off;
				n++;
			}
		}
		off = next;
	}
	return n;
}

/* ---- symbols ---- */

/* Appends the function symbols of one symbol section; returns the new count. */
static uw_u32 stp_et_syms_of(const struct stp_et_elf *e, const struct stp_et_sect *s,
			     struct stp_et_sym *out, uw_u32 n, uw_u32 cap)
{
	struct stp_et_sect strtab;
	uw_u32 i, count, esize = e->is64 ? 24 : 16;

	if (!s->data || s->entsize == 0 || stp_et_section(e, s->link, &strtab))
		return n;
	count = s->len / s->entsize;
	for (i = 0; i < count && n < cap; i++) {
		const uw_u8 *p = s->data + (uw_u64)i * s->entsize;
		struct stp_et_elf sym = {p, s->len - i * s->entsize, e->is64};
		uw_u8 info;
		uw_u32 shndx, type;
		uw_u64 value, size;
		if (s->entsize < esize)
			break;
		info = (uw_u8)stp_et_get(&sym, e->is64 ? 4 : 12, 1);
		shndx = (uw_u32)stp_et_get(&sym, e->is64 ? 6 : 14, 2);
		value = stp_et_word(&sym, e->is64 ? 8 : 4);
		size = stp_et_word(&sym, e->is64 ? 16 : 8);
		type = info & 0xf;
		if ((type != STP_ET_STT_FUNC && type != STP_ET_STT_GNU_IFUNC) ||
		    shndx == STP_ET_SHN_UNDEF || value == 0)
			continue;
		out[n].name = stp_et_str(&strtab, stp_et_get(&sym, 0, 4), &out[n].name_len);
		if (!out[n].name || !out[n].name_len)
			continue;
		out[n].value = value;
		out[n].size = size;
		out[n].binding = info >> 4;
		out[n].from_symtab = s->type == STP_ET_SHT_SYMTAB;
		n++;
	}
	return n;
}

/* Sorted, one per address, unsized ones sized to the next; the count. */
static uw_u32 stp_et_index_syms(struct stp_et_sym *syms, uw_u32 n)
{
	uw_u32 i, kept = 0;

	stp_et_sort(syms, n, sizeof(*syms), stp_et_sym_less);
	for (i = 0; i < n; i++)
		if (!kept || syms[kept - 1].value != syms[i].value)
			syms[kept++] = syms[i];
	for (i = 0; i + 1 < kept; i++)
		if (syms[i].size == 0)
			syms[i].size = syms[i + 1].value - syms[i].value;
	return kept;
}

/* ---- writing ---- */

static void stp_et_put32(uw_u8 *p, uw_u32 v)
{
	p[0] = (uw_u8)v;
	p[1] = (uw_u8)(v >> 8);
	p[2] = (uw_u8)(v >> 16);
	p[3] = (uw_u8)(v >> 24);
}

static void stp_et_put64(uw_u8 *p, uw_u64 v)
{
	stp_et_put32(p, (uw_u32)v);
	stp_et_put32(p + 4, (uw_u32)(v >> 32));
}

static void stp_et_copy(uw_u8 *dst, const uw_u8 *src, uw_u32 n)
{
	uw_u32 i;
	for (i = 0; i < n; i++)
		dst[i] = src[i];
}

static uw_u32 stp_et_align4(uw_u32 v)
{
	return (v + 3) & ~3u;
}

static int stp_et_in_window(uw_u64 v, uw_u64 base)
{
	return v >= base && v - base <= 0xffffffffu;
}

int stp_elf_table_build(const uw_u8 *img, uw_u32 len, const struct stp_et_alloc *a,
			uw_u8 **out, uw_u32 *out_len)
{
	struct stp_et_elf e = {img, len, 0};
	struct stp_et_sect eh_s = {0}, hdr_s = {0}, sym_s = {0}, dyn_s = {0};
	struct uw_cfi_section eh;
	struct stp_et_fde *fdes = 0;
	struct stp_et_sym *syms = 0;
	uw_u32 fde_cap, sym_cap = 0, nsyms = 0, i, fde_count = 0, sym_count = 0, strings_len = 0;
	uw_u32 fde_off, sym_off, eh_off, df_off, str_off, total;
	unsigned addr_size;
	uw_u8 arch, *t;
	uw_u64 base;
	long nfdes;
	int rc = STP_ET_OK;

	if (!stp_et_in(&e, 0, 64) || img[0] != 0x7f || img[1] != 'E' || img[2] != 'L' ||
	    img[3] != 'F' || img[5] != 1 /* little-endian */)
		return STP_ET_EBADELF;
	e.is64 = img[4] == 2;
	if (e.is64 && stp_et_get(&e, 18, 2) == STP_ET_EM_X86_64)
		arch = UW_ARCH_X86_64;
	else if (!e.is64 && img[4] == 1 && stp_et_get(&e, 18, 2) == STP_ET_EM_386)
		arch = UW_ARCH_I386;
	else
		return STP_ET_EBADELF;
	addr_size = arch == UW_ARCH_I386 ? 4 : 8;
	stp_et_find(&e, ".eh_frame", &eh_s);
	stp_et_find(&e, ".eh_frame_hdr", &hdr_s);
	stp_et_find(&e, ".symtab", &sym_s);
	stp_et_find(&e, ".dynsym", &dyn_s);
	base = stp_et_load_base(&e);

	eh.data = eh_s.data;
	eh.len = eh_s.data ? eh_s.len : 0;
	eh.vaddr = eh_s.data ? eh_s.vaddr : 0;
	eh.is_eh = 1;
	eh.addr_size = (uw_u8)addr_size;
	/* A record takes at least 8 bytes: a bound on the FDE count. */
	fde_cap = eh.len / 8 + 1;
	fdes = a->alloc(a->ctx, (unsigned long)fde_cap * sizeof(*fdes));
	if (sym_s.data && sym_s.entsize)
		sym_cap += sym_s.len / sym_s.entsize;
	if (dyn_s.data && dyn_s.entsize)
		sym_cap += dyn_s.len / dyn_s.entsize;
	syms = a->alloc(a->ctx, (unsigned long)(sym_cap + 1) * sizeof(*syms));
	if (!fdes || !syms) {
		rc = STP_ET_ENOMEM;
		goto out;
	}
	nfdes = 0;
	if (eh.len) {
		nfdes = stp_et_fdes_from_hdr(&hdr_s, &eh, addr_size, fdes, fde_cap);
		if (nfdes < 0)
			nfdes = stp_et_fdes_walk(&eh, fdes, fde_cap);
		if (nfdes < 0) {
			rc = (int)nfdes;
			goto out;
		}
	}
	stp_et_sort(fdes, (uw_u32)nfdes, sizeof(*fdes), stp_et_fde_less);
	for (i = 0; i < (uw_u32)nfdes; i++)
		if (stp_et_in_window(fdes[i].pc, base))
			fdes[fde_count++] = fdes[i];

	nsyms = stp_et_syms_of(&e, &sym_s, syms, 0, sym_cap);
	nsyms = stp_et_syms_of(&e, &dyn_s, syms, nsyms, sym_cap);
	nsyms = stp_et_index_syms(syms, nsyms);
	for (i = 0; i < nsyms; i++) {
		uw_u32 k;
		if (!stp_et_in_window(syms[i].value, base) || syms[i].size > 0xffffffffu)
			continue;
		/* names are shared in the pool (linear search: small images only) */
		for (k = 0; k < sym_count; k++)
			if (!stp_et_name_cmp(&syms[k], &syms[i]))
				break;
		syms[i].name_off = k < sym_count ? syms[k].name_off : strings_len;
		if (k == sym_count)
			strings_len += syms[i].name_len + 1;
		syms[sym_count++] = syms[i];
	}

	fde_off = UW_TABLE_HEADER_SIZE;
	sym_off = fde_off + fde_count * UW_FDE_ENTRY_SIZE;
	eh_off = sym_off + sym_count * UW_SYM_ENTRY_SIZE;
	df_off = stp_et_align4(eh_off + eh.len);
	str_off = df_off;
	total = stp_et_align4(str_off + strings_len);
	t = a->alloc(a->ctx, total);
	if (!t) {
		rc = STP_ET_ENOMEM;
		goto out;
	}
	for (i = 0; i < total; i++)
		t[i] = 0;
	stp_et_put32(t + UW_HDR_MAGIC, UW_TABLE_MAGIC);
	t[UW_HDR_ARCH] = arch;
	t[UW_HDR_VERSION] = UW_TABLE_VERSION;
	t[UW_HDR_SIZE] = UW_TABLE_HEADER_SIZE;
	stp_et_put32(t + UW_HDR_TOTAL_LEN, total);
	stp_et_put32(t + UW_HDR_FDE_COUNT, fde_count);
	stp_et_put32(t + UW_HDR_FDE_INDEX, fde_off);
	stp_et_put32(t + UW_HDR_EH_FRAME, eh_off);
	stp_et_put32(t + UW_HDR_EH_FRAME_LEN, eh.len);
	stp_et_put32(t + UW_HDR_DEBUG_FRAME, df_off);
	stp_et_put32(t + UW_HDR_DEBUG_FRAME_LEN, 0);
	stp_et_put32(t + UW_HDR_SYM_COUNT, sym_count);
	stp_et_put32(t + UW_HDR_SYMS, sym_off);
	stp_et_put32(t + UW_HDR_STRINGS, str_off);
	stp_et_put32(t + UW_HDR_STRINGS_LEN, strings_len);
	stp_et_put64(t + UW_HDR_ADDR_BASE, base);
	stp_et_put64(t + UW_HDR_EH_FRAME_VADDR, eh.vaddr);
	for (i = 0; i < fde_count; i++) {
		stp_et_put32(t + fde_off + i * UW_FDE_ENTRY_SIZE, (uw_u32)(fdes[i].pc - base));
		stp_et_put32(t + fde_off + i * UW_FDE_ENTRY_SIZE + 4, fdes[i].ref);
	}
	for (i = 0; i < sym_count; i++) {
		uw_u8 *p = t + sym_off + i * UW_SYM_ENTRY_SIZE;
		stp_et_put32(p, (uw_u32)(syms[i].value - base));
		stp_et_put32(p + 4, (uw_u32)syms[i].size);
		stp_et_put32(p + 8, syms[i].name_off);
		/* a shared name is written again in the same place */
		stp_et_copy(t + str_off + syms[i].name_off, (const uw_u8 *)syms[i].name,
			    syms[i].name_len);
	}
	if (eh.len)
		stp_et_copy(t + eh_off, eh.data, eh.len);
	*out = t;
	*out_len = total;
out:
	if (fdes)
		a->free(a->ctx, fdes);
	if (syms)
		a->free(a->ctx, syms);
	return rc;
}
