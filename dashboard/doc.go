// Package dashboard serves a local web page that follows training runs as
// they happen: the runs of a directory, their configurations, their
// learning curves drawn live from the JSON-lines logs, and the latest eval
// GIF of each.
//
// # Overview
//
// A run is a directory below the runs directory holding a config.json or a
// log.jsonl (as gorl train writes them, the log in the format of
// logger.JSONL). New returns a Server, an http.Handler with these routes:
//
//	GET /                   the page (HTML, CSS and JavaScript embedded in the binary)
//	GET /api/runs           the runs as a JSON array of Run
//	GET /api/config?run=R   the config.json of run R
//	GET /api/log?run=R      server-sent events: the records of R's log.jsonl, then each new one
//	GET /api/gif?run=R      the newest .gif file in R's directory
//
// Run names are slash-separated paths relative to the runs directory, such
// as "ppo-CartPole-v1-20250101-120000" or "sweep/seed1".
//
// The log stream sends an event "reset" first and whenever the file is
// truncated (a resumed run cuts its log back to its checkpoint), replaced,
// deleted or created again, and events "records" carrying a JSON array of
// the log's records in file order; the page clears a run's curves on a reset
// and extends them with records. Lines that are not JSON objects are
// skipped, and a last line without its newline waits until it is complete.
//
// # Safety
//
// The server is read-only: it answers GET and HEAD and never writes, moves
// or deletes a file. It serves only the embedded page and the files
// config.json, log.jsonl and *.gif of runs found below the runs directory:
// a run name that is not local (absolute, with "..", or not in clean
// form), names a hidden directory, or leads through a symbolic link out of
// the runs directory is refused with 400, and a name that is no run with
// 404. Symbolic links are not followed when runs are listed, and a run's
// files must be regular files. Requests whose Host header is a name other
// than localhost (or Config.Hosts) are refused with 403, so that a web page
// elsewhere cannot read the runs by rebinding its domain name to the
// loopback address. The command binds to the loopback address unless told
// otherwise.
//
// # Decisions
//
// The curves are drawn on a canvas by a short script of the package's own
// rather than by a charting library: the page needs only lines over steps,
// and the dashboard then ships no third-party code and needs no build step.
// Logs are followed by polling their size and identity rather than with
// file-system notifications, which the standard library does not offer and
// which miss changes on some network file systems; polling also notices a
// log truncated and regrown between two checks, because the last line sent
// is compared with the bytes at its place.
package dashboard
