// Package logger records a trainer's scalar statistics: TensorBoard event
// files, long-format CSV, JSON lines, and a console progress line.
//
// # Overview
//
// A Logger takes Log(scope, step, values): values (name → value) under a
// scope such as "train", "test" or "update", at step, the number of
// environment steps so far; Close releases it. Three loggers implement it:
//
//   - TensorBoard writes an event file events.out.tfevents.<unix
//     seconds>.<hostname> in a directory: TFRecord-framed Event protocol
//     buffers, encoded by hand, one event per Log call with one
//     simple_value per key, tagged "scope/key". ReadEvents reads such files
//     back (checking every CRC) for tests and tools.
//   - CSV writes "step,scope,key,value" rows, one per value.
//   - JSONL writes one JSON object per Log call.
//
// ReadJSONL reads a JSON-lines file back as Records, for plots and other
// tools. Multi fans one call out to several loggers. Progress is separate: the
// trainer drives it with Start(epoch, total), Update(step, meanReturn) and
// End to draw one console line per epoch (epoch, a bar, steps/total, mean
// return, the latest and best test returns given by SetTest, env steps and
// updates per second, the time left in the epoch and in the run), redrawn
// with '\r' at most once per interval; with ProgressConfig.Plain, for a
// writer that is not a terminal, it writes plain lines, one every ten
// seconds by default.
//
// # Invariants
//
//   - Within one Log call values are written in sorted key order, so the same
//     calls always produce the same bytes (TensorBoard's wall times aside,
//     which come from an injectable clock).
//   - Each Log call reaches the writer (or the event file) in one Write;
//     nothing is held back between calls, so there is no Flush, and a
//     process that dies loses nothing that Log had accepted.
//   - After a failed Write a logger returns that error from every later Log
//     and writes nothing more: a record after a partly written one would
//     make the rest of the file unreadable.
//   - Log on a closed logger panics with ErrClosed (a programmer error);
//     Close may be called more than once.
//   - CSV, JSONL and TensorBoard are safe for concurrent use; Progress is
//     not. Log allocates nothing once its scratch buffers have grown to the
//     size of a record.
//   - ReadEvents never panics on any input and allocates no more than
//     64 KiB ahead of the bytes it has read, whatever a length field claims.
//
// # Decisions
//
// Long-format CSV instead of a wide table with one column per key. The
// trainer logs different keys under different scopes, and new keys can
// appear at any time (a test run, a new loss term); a wide CSV would need
// its header rewritten, or rows with missing cells, or one file per scope.
// Long format never changes its header, streams, and becomes a wide table
// with one pivot.
//
// JSON lines nest the values under "values", so keys named "step" or
// "scope" cannot collide with the record's fields. NaN and ±Inf, which JSON
// numbers cannot express, are written as the strings "NaN", "+Inf" and
// "-Inf" (what strconv prints and parses), not as null, so that a diverging
// loss is still told apart from an infinite one.
//
// No buffering between calls. A Log costs some formatting plus one write
// system call; the trainer logs once per collect or update step, which
// costs far more, so the write is noise, and
// every accepted record being on its way to disk keeps TensorBoard live and
// a crash harmless. A caller that logs much more often can hand CSV or JSONL
// a bufio.Writer and flush it itself.
//
// TensorBoard files are written without a protobuf module: the three
// messages and five fields involved are encoded by hand, and the output is
// checked byte for byte against a file written by the Python package
// tensorboard_logger, and for an event with several values against a
// decoding by protoc. wall_time and step are omitted when 0, as proto3
// encoders do, and simple_value, a oneof member, is always written. One
// event carries all values of a Log call, as TensorFlow 1 merged summaries
// did, instead of one event per value. An existing event file is never
// overwritten: a name already taken gets a suffix ".1", ".2", ….
//
// ReadEvents reads the length and data of a record in chunks of at most
// 64 KiB after the length's own CRC matched, so a corrupted or hostile
// length field cannot make it allocate gigabytes for a short input.
//
// Progress is not a Logger: a bar needs the epoch and its total of steps,
// which Log does not carry, and which statistic is "the mean return" is the
// trainer's naming, not the logger's. The trainer calls Update with both
// numbers, as often as it likes; a redraw happens at most once per
// Interval (a tenth of a second by default), and an Update that does not
// redraw costs little more than reading the clock.
//
// Log after Close panics instead of returning an error, as the style of
// the project has it for use after Close: it is a bug in the caller, and an
// error would be dropped by a trainer that logs in a loop.
//
// CSV and JSONL write to an io.Writer the caller owns and do not close it,
// like encoding/csv and encoding/json; TensorBoard owns its file because the
// file name is part of the format. A CSV is started with its header and is
// not meant to be appended to by a second logger.
package logger
