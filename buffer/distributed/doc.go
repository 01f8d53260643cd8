// Package distributed holds replay buffers whose data lives on all members
// of a group (Machin's DistributedBuffer and DistributedPrioritizedBuffer):
// each member keeps a local shard, any buffer.Buffer, and adds to it
// locally; a sample gathers transitions from every live member.
//
// # Overview
//
// New makes a member of a plain buffer and NewPrioritized one of a
// prioritized buffer, over a cluster.Transport. A member with a shard
// serves samples of it and announces its size (and, prioritized, its
// priority sum and minimum) every Heartbeat; every member keeps the table
// of live members from those announcements, so members join and leave at
// run time, and one without a shard (a learner) only samples.
//
// Sample(n) splits n over the live members by a multinomial draw in
// proportion to their sizes (plain) or priority sums (prioritized), asks
// each for its share in parallel, and concatenates the answers into one
// Batch, in the form a local buffer's TakeTo gives. Prioritized samples
// carry importance weights computed with the global minimum priority,
// (pᵢ/p_min)^(−β), so they equal what one buffer holding all the data would
// give, and a Handle per row for UpdatePriority.
//
// SampleBatch gives the same draw in the forms of Machin's memory
// (buffer.Memory.SampleBatch): a sample method (SampleRandomUnique,
// SampleRandom, SampleAll), attribute selection with "*" for the rest, and
// concatenated or per-transition values.
//
// With Config.Journal (a cluster.Stream over a replicated JetStream
// stream) adds are durable: Add publishes the transitions and returns
// without waiting for the acknowledgement, the member reads its journal
// subject back into its shard, and Config.Acked hears which adds were
// stored. A member restarted under its name gets its shard back from the
// journal.
//
// # Invariants
//
//   - Nothing blocks forever: a sample waits at most Config.Deadline for
//     each member; a member that does not answer in time is reported in
//     Sample.Missing and its share is drawn again from the members that
//     answered.
//   - A priority update reaches the shard that holds the transition and is
//     applied only if the slot still holds it: a Handle names the member,
//     the index and the slot's write generation, and an update for an
//     overwritten slot is dropped.
//   - Len is this member's view: its own shard and the sizes last
//     announced by the others.
//   - With a journal, a shard holds only what the journal stored, in the
//     journal's order, and an actor never waits on an acknowledgement: an
//     add beyond the bound of pending ones is refused at once.
//
// # Decisions
//
//   - Sizes and priority sums come from the announcements, not from a
//     query per sample: one round trip per sample instead of two. Shares
//     are drawn from sums at most one heartbeat old; each answer carries
//     the member's current figures, which refresh the table at once.
//   - Priority updates are published without acknowledgement (core NATS,
//     at most once): a lost update leaves an old priority in place, which
//     prioritized replay tolerates, and a learner never waits on an actor.
//   - The shard samples with a seed drawn from the sampler's random
//     source, so a run with fixed members is reproducible.
package distributed
