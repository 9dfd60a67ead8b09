/* The vdso: where it is mapped and its unwind table.
 *
 * The vdso has no file, so no `-d` can name it; its ELF image is part of the
 * running kernel (struct vdso_image in asm/vdso.h: an x86_64 kernel has a
 * 64-bit image and a 32-bit one for compat tasks, the i386 kernel its 32-bit
 * one). None of the images is exported by name, but every mm points at the
 * one it uses (mm->context.vdso_image), so tables are built on first sight,
 * in sleepable context (session start, task work), and kept until the
 * module is unloaded. Where the vdso is mapped is read from the mm at each
 * lookup (mm->context.vdso), so a vdso moved by mremap() is still found. */

#include <asm/vdso.h>

/* 64-bit, 32-bit and x32 images at most. */
#define STP_VDSO_SLOTS 3

struct stp_vdso {
	const struct vdso_image *image; /* set last, with release: the slot is ready */
	u8 *blob;
	u32 blob_len;
	struct uw_table table;
	bool table_ok;
};

static struct stp_vdso stp_vdsos[STP_VDSO_SLOTS];
static DEFINE_MUTEX(stp_vdso_mutex);

static void *stp_vdso_alloc(void *ctx, unsigned long size)
{
	return kvmalloc(size, GFP_KERNEL);
}

static void stp_vdso_free_mem(void *ctx, void *p)
{
	kvfree(p);
}

/* Any context: the slot of an image whose table was built (or tried). */
static const struct stp_vdso *stp_vdso_find(const struct vdso_image *image)
{
	unsigned i;
	for (i = 0; i < STP_VDSO_SLOTS; i++)
		if (smp_load_acquire(&stp_vdsos[i].image) == image)
			return &stp_vdsos[i];
	return NULL;
}

/* Sleepable: builds the table of `image` unless it exists. A table that
 * cannot be built leaves the vdso without one (frames in it are still
 * named "[vdso]") and says why once. */
static void stp_vdso_prepare(const struct vdso_image *image)
{
	struct stp_et_alloc a = {stp_vdso_alloc, stp_vdso_free_mem, NULL};
	struct stp_vdso *slot = NULL;
	unsigned i;
	int rc;

	if (!image || stp_vdso_find(image))
		return;
	mutex_lock(&stp_vdso_mutex);
	for (i = 0; i < STP_VDSO_SLOTS; i++) {
		if (stp_vdsos[i].image == image)
			goto out;
		if (!stp_vdsos[i].image && !slot)
			slot = &stp_vdsos[i];
	}
	if (!slot)
		goto out;
	rc = image->size > U32_MAX ? STP_ET_EBADELF :
	     stp_elf_table_build(image->data, image->size, &a, &slot->blob, &slot->blob_len);
	if (rc == STP_ET_OK) {
		rc = uw_table_open(&slot->table, slot->blob, slot->blob_len);
		slot->table_ok = rc == 0;
		if (rc)
			stp_ctl_send("warning the vdso's unwind table is invalid: %s", uw_strerror(rc));
	} else {
		stp_ctl_send("warning cannot build the vdso's unwind table (error %d)", rc);
	}
	smp_store_release(&slot->image, image);
out:
	mutex_unlock(&stp_vdso_mutex);
}

/* Any context: addr in mm's vdso? */
static bool stp_vdso_lookup(struct mm_struct *mm, unsigned long addr, struct stp_vma_hit *hit)
{
	unsigned long start = (unsigned long)READ_ONCE(mm->context.vdso);
	const struct vdso_image *image = READ_ONCE(mm->context.vdso_image);
	const struct stp_vdso *v;

	if (!start || !image || addr < start || addr - start >= image->size)
		return false;
	v = stp_vdso_find(image);
	hit->start = start;
	hit->end = start + image->size;
	hit->base = start; /* linked at 0: file offset 0 is its start */
	hit->path = "[vdso]";
	hit->name = "[vdso]";
	hit->table = v && v->table_ok ? &v->table : NULL;
	hit->lines = NULL; /* the kernel's vdso image has no DWARF */
	return true;
}

/* At unload, once nothing can look a table up. */
static void stp_vdso_free(void)
{
	unsigned i;
	for (i = 0; i < STP_VDSO_SLOTS; i++) {
		kvfree(stp_vdsos[i].blob);
		memset(&stp_vdsos[i], 0, sizeof(stp_vdsos[i]));
	}
}
