package cluster_test

import (
	"testing"
	"time"

	"github.com/gorl/gorl/cluster"
)

// TestReportsAndStatusRoundTrip sends reports and statuses through an
// embedded server: each arrives with the fields it was sent with (the
// expected values are the sent ones), and a message of another length on
// the subject is skipped.
func TestReportsAndStatusRoundTrip(t *testing.T) {
	tr := startNode(t, cluster.Options{}).Transport()
	got := make(chan cluster.Report, 4)
	stop, err := cluster.SubscribeReports(tr, "g", func(r cluster.Report) { got <- r })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	st, err := cluster.FollowStatus(tr, "g")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if st.Latest() != nil {
		t.Fatal("a status before any was sent")
	}
	reports := []cluster.Report{
		{Actor: 0, Steps: 50, Episodes: 2, LastReturn: 21.5},
		{Actor: 3, Steps: 20, Unrolls: 1},
		{Actor: 1 << 20, Steps: 1 << 40, Episodes: 1, LastReturn: -3.25},
	}
	tr.Publish("gorl.g.report", []byte("short"))
	for _, r := range reports {
		if err := cluster.PublishReport(tr, "g", r); err != nil {
			t.Fatal(err)
		}
	}
	for i, want := range reports {
		select {
		case r := <-got:
			if r != want {
				t.Errorf("report %d = %+v, want %+v", i, r, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("report %d did not arrive", i)
		}
	}
	for _, want := range []cluster.Status{{Updates: 7, Steps: 900, Waiting: true}, {Updates: 8, Steps: 950}, {Updates: 9, Steps: 990, Done: true}} {
		if err := cluster.PublishStatus(tr, "g", want); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(5 * time.Second)
		for {
			if s := st.Latest(); s != nil && *s == want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("status %+v not seen; latest %+v", want, st.Latest())
			}
			time.Sleep(time.Millisecond)
		}
	}
}
