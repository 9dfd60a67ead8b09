/* The load addresses of another module's sections, for the static data a
 * DWARF location names (DW_OP_addr in a .ko: each section is placed on its
 * own at load time). Generated code asks
 * stp_module_section("stp_testmod", ".bss") + offset.
 *
 * Neither find_module() nor kallsyms lookups are exported on 6.1, and the
 * i386 kernel keeps no data symbols in kallsyms. The modules list is
 * reached from our own module's node (its head is in the kernel image,
 * outside the module area, which is how it is told apart), and a module's
 * section addresses are what /sys/module/NAME/sections/ shows: its
 * sect_attrs, whose layout (kernel/module/sysfs.c, private) is repeated
 * here for 6.1. Safe in probe context: RCU walk, no sleeping. */

struct stp_module_sect_attr {
	struct bin_attribute battr;
	unsigned long address;
};

struct stp_module_sect_attrs {
	struct attribute_group grp;
	unsigned int nsections;
	struct stp_module_sect_attr attrs[];
};

static bool stp_in_module_area(const void *p)
{
	unsigned long a = (unsigned long)p;
	return a >= MODULES_VADDR && a < MODULES_END;
}

/* 0 when the module is not loaded or has no such section. */
unsigned long stp_module_section(const char *module, const char *section)
{
	struct list_head *pos;
	unsigned long addr = 0;

	rcu_read_lock();
	list_for_each_rcu(pos, &THIS_MODULE->list) {
		struct module *mod;
		struct stp_module_sect_attrs *sa;
		unsigned i;

		if (!stp_in_module_area(pos))
			continue; /* the list's head, `modules` */
		mod = list_entry(pos, struct module, list);
		if (strcmp(mod->name, module) != 0)
			continue;
		sa = (struct stp_module_sect_attrs *)mod->sect_attrs;
		for (i = 0; sa && i < sa->nsections; i++)
			if (sa->attrs[i].battr.attr.name &&
			    strcmp(sa->attrs[i].battr.attr.name, section) == 0) {
				addr = sa->attrs[i].address;
				break;
			}
		break;
	}
	rcu_read_unlock();
	return addr;
}
