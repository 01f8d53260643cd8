package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/gorl/gorl/env/wire"
)

const usage = `usage:
  gorl train --algo NAME --env ID [--seed N] [--config FILE] [--logdir DIR] [--set path=value]... [--resume | --overwrite]
  gorl train --algo bc|bcq|bcq-continuous|td3-bc --dataset FILE [--env ID] [...]
  gorl collect --policy RUN_DIR --steps N --out FILE [--env ID] [--noise σ | --epsilon ε]
  gorl eval [--episodes N] [--seed N] [--gif FILE] POLICY_OR_RUN_DIR
  gorl list [--presets]
  gorl bench [--seeds N] [RUN]...
  gorl bench matrix [--only ALGO] [--env ID] [--seeds N] [--jobs K] [--out FILE]
  gorl dashboard [RUNS_DIR] [--addr 127.0.0.1:6006]
  gorl plot [--out FILE] [--x env_step|time] [--y test/return|train/return|loss/...] RUN_DIR...
  gorl compare [--best] [--resamples N] [--out FILE] RUN_GLOB...
  gorl train --algo apex-dqn|apex-ddpg|impala|a3c [--actors N] [--nats URL[,URL]] [...]
  gorl serve [--host 127.0.0.1] [--port 4222]
  gorl learner --connect URL --algo apex-dqn|apex-ddpg|impala|a3c [--actors N] [--logdir DIR] [--resume]
  gorl actor --connect URL --id N [--group NAME]
Run "gorl COMMAND -h" for a command's flags.
`

func main() {
	wire.ServeWorker() // a worker process of an env (workers=process) serves it and exits
	ctx, stop := interruptible(context.Background(), os.Stderr)
	err := runSafe(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil:
	case errors.Is(err, errInterrupted): // reported by the command
		os.Exit(exitInterrupted)
	case context.Cause(ctx) == errInterrupted:
		fmt.Fprintln(os.Stderr, "gorl: interrupted")
		os.Exit(exitInterrupted)
	case !errors.Is(err, flag.ErrHelp) && !errors.Is(err, errUsage):
		fmt.Fprintln(os.Stderr, "gorl:", err)
	}
	os.Exit(exitCode(err))
}

// errUsage is returned by run after printing the usage for a command line
// without a command.
var errUsage = errors.New("no command")

// exitCode is the exit status of the process for run's error: 0 for none
// and for a help request (-h, as the flag package's ExitOnError does), 2
// for any other error.
func exitCode(err error) int {
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// run executes the command of args, writing results to stdout and progress
// to stderr.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errUsage
	}
	switch args[0] {
	case "train":
		return cmdTrain(ctx, args[1:], stdout, stderr)
	case "eval":
		return cmdEval(ctx, args[1:], stdout, stderr)
	case "collect":
		return cmdCollect(ctx, args[1:], stdout, stderr)
	case "list":
		if len(args) > 1 && args[1] == "--presets" {
			return cmdListPresets(stdout)
		}
		return cmdList(stdout)
	case "bench":
		return cmdBench(ctx, args[1:], stdout, stderr)
	case "dashboard":
		return cmdDashboard(ctx, args[1:], stdout, stderr)
	case "plot":
		return cmdPlot(ctx, args[1:], stdout, stderr)
	case "compare":
		return cmdCompare(ctx, args[1:], stdout, stderr)
	case "serve":
		return cmdServe(ctx, args[1:], stdout, stderr)
	case "learner":
		return cmdTrainDistributed(ctx, "learner", args[1:], stdout, stderr)
	case "actor":
		return cmdActor(ctx, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// multiFlag collects the values of a flag given several times.
type multiFlag []string

func (m *multiFlag) String() string     { return fmt.Sprint(*m) }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }
