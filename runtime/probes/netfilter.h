/* netfilter.hook("HOOK").pf("PF")[.priority("P")] (and .pf(...).hook(...)):
 * a netfilter hook function per probe, registered in the initial network
 * namespace (STP_KIND_NETFILTER, netfilter.c). Only netfilter.c includes
 * <linux/netfilter.h>: the generated C sees numbers, which the translator
 * worked out from the names (a guru-mode name it does not know is written
 * verbatim, with the headers included before the table). */
struct nf_hook_ops;
struct stp_netfilter_probe {
	const struct stp_probe *probe;
	int pf;                   /* NFPROTO_IPV4 (2), _ARP (3), _BRIDGE (7), _IPV6 (10) */
	int hooknum;              /* NF_INET_LOCAL_IN, NF_ARP_OUT, ... */
	int priority;             /* lower runs first; 0 by default */
	struct nf_hook_ops *ops;  /* while registered */
};

/* A netfilter probe's target variables: the context's entry_data while
 * its handler runs, on the hook function's stack. $verdict is read and
 * (guru mode) written in place: the hook returns what it holds after the
 * handler. */
struct stp_nf_args {
	unsigned long hooknum;
	unsigned long skb;        /* struct sk_buff * */
	unsigned long in, out;    /* struct net_device *, or 0 */
	unsigned int verdict;     /* NF_ACCEPT unless the probe changes it */
};
#define STP_NF_ARGS(c) ((struct stp_nf_args *)(c)->entry_data)
