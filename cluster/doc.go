// Package cluster connects gorl processes through NATS: the messaging layer
// under the distributed buffers, the parameter server and the distributed
// algorithms (Machin's DistributedBuffer, IMPALA, Ape-X, A3C).
//
// # Overview
//
// Start returns a Node: by default it embeds a NATS server in the process
// and connects to it in memory, so one process runs learner and actors with
// no port opened. Options.Listen lets other processes join that embedded
// server on 127.0.0.1 (a random port unless one is given); Options.URLs
// connects to an existing NATS deployment instead, with the same code path
// after the connection. Credentials (user and password, an NKey seed file,
// a creds file) and a TLS CA are passed through to the client.
//
// Everything above this package talks through Transport, four calls
// (publish, subscribe, request, serve requests) with no NATS type in them,
// so bulk experience could later move to a direct stream without touching
// the buffers or the algorithms.
//
// Params is a parameter server: a learner publishes versioned weights, any
// number of actors fetch the latest or wait for one newer than what they
// hold. Blobs larger than the server's payload limit travel in chunks.
//
// OpenStream opens a JetStream stream (replicated across a cluster's
// servers) as a Stream: Publish returns before the acknowledgement, which
// a callback reports; Read delivers a subject's stored messages in order.
// The distributed buffers use it as the journal that makes adds durable.
//
// GradServer is the other direction, for A3C: workers push gradients
// (GradPusher, chunked like the weights) to the parameter holder, which
// applies each once with its optimizer and publishes the new weights as
// the next version of its ParamServer.
//
// # Invariants
//
//   - Nothing listens on a non-loopback address unless Options.Host says so.
//   - No call blocks forever: every request takes a context, and Node.Close
//     drains the connection and stops the embedded server.
//   - A pushed gradient is applied at most once: a pusher whose reply was
//     lost sends the same request again and the server, which keeps each
//     worker's last outcome, answers it without applying it twice.
//   - Core NATS delivers at most once: a message published while nobody
//     listens, or dropped by a slow consumer, is gone. The buffers built on
//     it treat a missing reply as a missing member, never as data.
//   - A Stream never makes its publisher wait: at most MaxPending
//     publications await their acknowledgement, and one more is refused
//     with ErrBackpressure.
//
// # Decisions
//
//   - NATS, embedded by default: one static Go binary still runs a whole
//     distributed run, and the same binary joins a real cluster by URL.
//     The engine was chosen by measurement before this package was written
//     (docs/design.md, "Distributed runs").
//   - Subjects are "gorl.<group>.<role>…", so several runs can share one
//     deployment by group name.
//   - Requests are answered through a reply function the handler may call
//     later, so a server can park a request (the parameter server's "wait
//     for a newer version") without blocking NATS's delivery goroutine.
package cluster
