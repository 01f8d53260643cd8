// Command export-safetensors writes the weights of a PPO policy that gorl
// train saved to a safetensors file, which PyTorch (or numpy) loads; the
// README beside this file shows the Python side.
//
//	go run ./cmd/gorl train --algo ppo --env CartPole-v1 --logdir runs/ppo
//	go run ./examples/export-safetensors runs/ppo/best.gorl policy.safetensors
//
// The tensors keep the policy's parameter names, which are those of the
// equivalent PyTorch module's state_dict: for gorl's default PPO network on
// a Discrete action space, trunk.0 and trunk.2 (hidden Linear layers, each
// followed by the activation) and actor (the Linear layer of the action
// logits). Linear weights are [out, in], as in PyTorch.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"

	"github.com/gorl/gorl/algo/ppo"
	"github.com/gorl/gorl/env"
	_ "github.com/gorl/gorl/env/classic" // registers the classic-control envs
	"github.com/gorl/gorl/nd"
	"github.com/gorl/gorl/nn"
	"github.com/gorl/gorl/policy"
	"github.com/gorl/gorl/policyfile"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: export-safetensors POLICY_FILE OUT.safetensors")
		os.Exit(2)
	}
	if err := run(os.Stdout, os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "export-safetensors:", err)
		os.Exit(1)
	}
}

// buildPPO builds the PPO policy a policy file describes.
func buildPPO(h policyfile.Header) (policy.Policy, error) {
	if h.Algo != "ppo" {
		return nil, fmt.Errorf("a %s policy; this example exports PPO policies", h.Algo)
	}
	probe, err := env.Make(h.Env)
	if err != nil {
		return nil, err
	}
	defer probe.Close()
	cfg := ppo.DefaultConfig()
	if err := json.Unmarshal(h.Algorithm, &cfg); err != nil {
		return nil, err
	}
	a, err := ppo.New(cfg, probe.ObservationSpace(), probe.ActionSpace(), rand.New(rand.NewPCG(0, 0)))
	if err != nil {
		return nil, err
	}
	return a.Policy(), nil
}

func run(w io.Writer, in, out string) error {
	f, err := policyfile.LoadFile(in, buildPPO)
	if err != nil {
		return err
	}
	if f.Normalize != nil && f.Normalize.Enabled() {
		return fmt.Errorf("%s: the run normalized its observations; the exported network would need its statistics too", in)
	}
	var hidden struct {
		Net struct {
			Activation string `json:"activation"`
		} `json:"net"`
	}
	if err := json.Unmarshal(f.Algorithm, &hidden); err != nil {
		return err
	}
	activation := hidden.Net.Activation
	if activation == "" {
		activation = "relu"
	}
	// safetensors metadata is a string → string map; PyTorch's load_file
	// ignores it, safe_open(...).metadata() returns it.
	meta := map[string]string{"algo": f.Algo, "env": f.Env, "activation": activation}
	file, err := os.Create(out)
	if err != nil {
		return err
	}
	if err := nn.Save(file, f.Policy.Params(), meta); err != nil {
		file.Close()
		return err
	}
	if err := file.Close(); err != nil {
		return err
	}
	fmt.Fprintf(w, "wrote %s (%s on %s, %s activation):\n", out, f.Algo, f.Env, activation)
	for _, p := range f.Policy.Params() {
		fmt.Fprintf(w, "  %-16s %v\n", p.Name, p.Tensor.Shape())
	}
	// An action to compare with the Python side's on the same observation.
	obs := []float32{0.01, 0.2, -0.03, -0.3}
	f.Policy.SetTrainingStep(false)
	act, err := policy.ComputeAction(f.Policy, nd.MustNew(obs))
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "greedy action for observation %v: %s\n", obs, act.Str())
	return nil
}
