/* Netfilter probes: one struct nf_hook_ops per probe, registered with
 * nf_register_net_hook() in init_net when the session starts and
 * unregistered when it stops. The hook function runs the probe in the
 * usual probe context (stp_run_event_probe_data: interrupts off, no
 * sleeping, MAXACTION) with the packet and the hook state as its
 * variables, and returns the verdict the probe left (NF_ACCEPT unless a
 * guru-mode probe assigned $verdict). Hooks run in softirq or process
 * context under rcu_read_lock(); only while the session runs does the
 * probe (the hook itself then just accepts). */
#include <linux/netfilter.h>
#include <linux/netdevice.h>
#include <net/net_namespace.h>

static unsigned int stp_netfilter_hook(void *priv, struct sk_buff *skb,
				       const struct nf_hook_state *state)
{
	struct stp_netfilter_probe *p = priv;
	struct stp_nf_args a = {
		.hooknum = state->hook,
		.skb = (unsigned long)skb,
		.in = (unsigned long)state->in,
		.out = (unsigned long)state->out,
		.verdict = NF_ACCEPT,
	};
	stp_run_event_probe_data(p->probe, NULL, &a, 0, false);
	return a.verdict;
}

static void stp_netfilter_unregister(void)
{
	struct stp_netfilter_probe *probes = stp_kind_table(NETFILTER)->probes;
	unsigned i;
	bool any = false;

	for (i = 0; i < stp_kind_table(NETFILTER)->n; i++)
		if (probes[i].ops) {
			nf_unregister_net_hook(&init_net, probes[i].ops);
			any = true;
		}
	/* A hook already entered on another CPU (under rcu_read_lock) may
	 * still run: wait for it before the ops and the module go. */
	if (any)
		synchronize_net();
	for (i = 0; i < stp_kind_table(NETFILTER)->n; i++) {
		kfree(probes[i].ops);
		probes[i].ops = NULL;
	}
}

/* 0, or the first probe's error (after reporting it). */
static int stp_netfilter_register(void)
{
	struct stp_netfilter_probe *probes = stp_kind_table(NETFILTER)->probes;
	unsigned i;

	for (i = 0; i < stp_kind_table(NETFILTER)->n; i++) {
		struct stp_netfilter_probe *p = &probes[i];
		struct nf_hook_ops *ops = kzalloc(sizeof(*ops), GFP_KERNEL);
		int rc;
		if (!ops)
			return -ENOMEM;
		ops->hook = stp_netfilter_hook;
		ops->priv = p;
		ops->pf = p->pf;
		ops->hooknum = p->hooknum;
		ops->priority = p->priority;
		rc = nf_register_net_hook(&init_net, ops);
		if (rc) {
			kfree(ops);
			stp_ctl_send("error probe %s (%s) registration failed: error %d",
				     p->probe->pp, p->probe->loc, rc);
			return rc;
		}
		p->ops = ops;
	}
	return 0;
}

static const struct stp_probe_kind_ops stp_kind_netfilter = {
	.name = "netfilter",
	.register_probes = stp_netfilter_register,
	.unregister_probes = stp_netfilter_unregister,
};
