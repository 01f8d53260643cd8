// Package collector runs policies in vector envs and stores the transitions
// in replay buffers: Tianshou's Collector and AsyncCollector.
//
// # Overview
//
// A [Collector] is made from a [Config] (a vector env, a [Policy], a buffer)
// and collects on request ([Request]: NStep steps or NEpisode episodes,
// random actions, a reset first, rendering), returning [Stats]:
//
//	c, err := collector.New(collector.Config{Env: envs, Policy: pol, Buffer: buf, Explore: true})
//	...
//	if err := c.Reset(ctx, seeds); err != nil { ... }
//	stats, err := c.Collect(ctx, collector.Request{NStep: 1000})
//
// The collector declares what it needs from a policy, [Policy] (actions
// for a batch of observations, with an optional hidden state) and
// optionally [ActionMapper]; policy packages implement them.
package collector
