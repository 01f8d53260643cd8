package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"text/tabwriter"

	"github.com/gorl/gorl/env"
)

// cmdList prints the registered envs and algorithms.
func cmdList(stdout io.Writer) error {
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ENV\tMAX STEPS\tREWARD THRESHOLD\tOBSERVATIONS\tACTIONS")
	for _, id := range env.IDs() {
		spec, _ := env.Lookup(id)
		threshold := "-"
		if spec.RewardThreshold != nil {
			threshold = fmt.Sprint(*spec.RewardThreshold)
		}
		obs, act := "?", "?"
		if e, err := env.Make(id); err == nil {
			obs, act = e.ObservationSpace().String(), e.ActionSpace().String()
			e.Close()
		}
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\n", id, spec.MaxEpisodeSteps, threshold, obs, act)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "ALGORITHM\tDESCRIPTION")
	for _, name := range algorithmNames() {
		fmt.Fprintf(w, "%s\t%s\n", name, algorithms[name].doc())
	}
	for _, name := range slices.Sorted(maps.Keys(distAlgos)) {
		fmt.Fprintf(w, "%s\t%s (distributed: gorl train --actors N, or gorl learner and gorl actor)\n", name, distAlgos[name].doc)
	}
	return w.Flush()
}
