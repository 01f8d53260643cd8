package buffer_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/gorl/gorl/batch"
	"github.com/gorl/gorl/buffer"
	"github.com/gorl/gorl/nd"
)

// The expected values in this file are seed 002's printouts (Tianshou
// "Basic concepts", Buffer section), unless a comment says otherwise.

func mustReplay(t testing.TB, cfg buffer.Config) *buffer.Replay {
	t.Helper()
	b, err := buffer.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustAdd(t testing.TB, b buffer.Buffer, data *batch.Batch, ids []int) []buffer.Step {
	t.Helper()
	steps, err := b.Add(data, ids, nil)
	if err != nil {
		t.Fatal(err)
	}
	return steps
}

func storedRepr(t testing.TB, b interface{ Data() *batch.Batch }, key string) string {
	t.Helper()
	a, err := b.Data().Array(key)
	if err != nil {
		t.Fatal(err)
	}
	return a.String()
}

func arrayOf(t testing.TB, b *batch.Batch, key string) *nd.Array {
	t.Helper()
	a, err := b.Array(key)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// seedBuffers builds seed 002's buf (size 20, three adds) and buf2 (size
// 10, fifteen adds, terminated every fourth step).
func seedBuffers(t *testing.T) (buf, buf2 *buffer.Replay) {
	buf = mustReplay(t, buffer.Config{Size: 20})
	for i := range 3 {
		mustAdd(t, buf, batch.MustNew("obs", i, "act", i, "rew", i, "terminated", 0, "truncated", 0, "obs_next", i+1, "info", &batch.Batch{}), nil)
	}
	buf2 = mustReplay(t, buffer.Config{Size: 10})
	for i := range 15 {
		terminated := i%4 == 0
		mustAdd(t, buf2, batch.MustNew("obs", i, "act", i, "rew", i, "terminated", terminated, "truncated", false, "obs_next", i+1, "info", &batch.Batch{}), nil)
	}
	return buf, buf2
}

func TestSeed002Add(t *testing.T) {
	buf, buf2 := seedBuffers(t)
	if got, want := storedRepr(t, buf, "obs"), "array([0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])"; got != want {
		t.Errorf("buf.obs = %s, want %s", got, want)
	}
	if buf.Len() != 3 {
		t.Errorf("len(buf) = %d, want 3", buf.Len())
	}
	if buf2.Len() != 10 {
		t.Errorf("len(buf2) = %d, want 10", buf2.Len())
	}
	if got, want := storedRepr(t, buf2, "obs"), "array([10, 11, 12, 13, 14,  5,  6,  7,  8,  9])"; got != want {
		t.Errorf("buf2.obs = %s, want %s", got, want)
	}
}

func TestSeed002UpdatePrevNext(t *testing.T) {
	buf, buf2 := seedBuffers(t)
	to, err := buf.Update(buf2)
	if err != nil {
		t.Fatal(err)
	}
	// Update returns the destination indices: 3..12 (Tianshou's update).
	if want := []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; !slices.Equal(to, want) {
		t.Errorf("Update returned %v, want %v", to, want)
	}
	// The seed prints these values with a line break after 16 elements;
	// numpy 1.24 (and nd) break after 17, which the repr below checks.
	wantObs := []int64{0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0, 0, 0, 0, 0, 0, 0}
	if got := arrayOf(t, buf.Data(), "obs"); !nd.Equal(got, nd.MustNew(wantObs)) {
		t.Errorf("buf.obs after update = %v, want %v", got, wantObs)
	}
	want := "array([ 0,  1,  2,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14,  0,  0,  0,  0,\n        0,  0,  0])"
	if got := storedRepr(t, buf, "obs"); got != want {
		t.Errorf("buf.obs after update =\n%s\nwant\n%s", got, want)
	}
	// buf2 is unchanged.
	if got, want := storedRepr(t, buf2, "obs"), "array([10, 11, 12, 13, 14,  5,  6,  7,  8,  9])"; got != want || buf2.Len() != 10 {
		t.Errorf("buf2 changed: obs %s, len %d", got, buf2.Len())
	}
	indices := buf.SampleIndices(0, nil)
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; !slices.Equal(indices, want) {
		t.Errorf("sample_indices(0) = %v, want %v", indices, want)
	}
	if got, want := buf.Prev(indices), []int{0, 0, 1, 2, 3, 4, 5, 7, 7, 8, 9, 11, 11}; !slices.Equal(got, want) {
		t.Errorf("prev = %v, want %v", got, want)
	}
	if got, want := buf.Next(indices), []int{1, 2, 3, 4, 5, 6, 6, 8, 9, 10, 10, 12, 12}; !slices.Equal(got, want) {
		t.Errorf("next = %v, want %v", got, want)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	data, idx, err := buf.Sample(4, rng)
	if err != nil {
		t.Fatal(err)
	}
	byIndex, err := buf.Take(idx)
	if err != nil {
		t.Fatal(err)
	}
	if !nd.Equal(arrayOf(t, data, "obs"), arrayOf(t, byIndex, "obs")) || len(idx) != 4 {
		t.Errorf("batch_data.obs = %v, buf[indices].obs = %v", arrayOf(t, data, "obs"), arrayOf(t, byIndex, "obs"))
	}
	if buf.Len() != 13 {
		t.Errorf("len(buf) = %d, want 13", buf.Len())
	}
}

// frameStackBuffer builds seed 002's "advanced usage" buffer: size 9,
// stack_num 4, ignore_obs_next, sixteen adds terminated every fifth step.
func frameStackBuffer(t *testing.T) (*buffer.Replay, [][2]float64) {
	buf := mustReplay(t, buffer.Config{Size: 9, StackNum: 4, IgnoreObsNext: true})
	var printed [][2]float64
	for i := range 16 {
		terminated := i%5 == 0
		steps := mustAdd(t, buf, batch.MustNew("obs", batch.MustNew("id", i), "act", i, "rew", i,
			"terminated", terminated, "truncated", false, "obs_next", batch.MustNew("id", i+1)), nil)
		printed = append(printed, [2]float64{float64(steps[0].EpisodeLen), steps[0].EpisodeReturn})
	}
	return buf, printed
}

func TestSeed002FrameStack(t *testing.T) {
	buf, printed := frameStackBuffer(t)
	// print(i, ep_len, ep_rew) for i in 0..15.
	want := [][2]float64{{1, 0}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {5, 15}, {0, 0}, {0, 0}, {0, 0}, {0, 0},
		{5, 40}, {0, 0}, {0, 0}, {0, 0}, {0, 0}, {5, 65}}
	if !slices.Equal(printed, want) {
		t.Errorf("(ep_len, ep_rew) per add = %v, want %v", printed, want)
	}
	// print(buf): obs_next is not stored.
	for key, want := range map[string]string{
		"obs.id": "array([ 9, 10, 11, 12, 13, 14, 15,  7,  8])",
		"act":    "array([ 9, 10, 11, 12, 13, 14, 15,  7,  8])",
		"rew":    "array([ 9., 10., 11., 12., 13., 14., 15.,  7.,  8.])",
	} {
		if got := storedRepr(t, buf, key); got != want {
			t.Errorf("buf.%s = %s, want %s", key, got, want)
		}
	}
	if want := []bool{false, true, false, false, false, false, true, false, false}; !slices.Equal(buf.Done(), want) {
		t.Errorf("buf.done = %v, want %v", buf.Done(), want)
	}
	if buf.Data().Has("obs_next") {
		t.Error("obs_next is stored despite IgnoreObsNext")
	}
	index := []int{0, 1, 2, 3, 4, 5, 6, 7, 8}
	got, err := buf.Get(index, "obs")
	if err != nil {
		t.Fatal(err)
	}
	id := arrayOf(t, got.(*batch.Batch), "id")
	wantStack := "[[ 7  7  8  9]\n [ 7  8  9 10]\n [11 11 11 11]\n [11 11 11 12]\n [11 11 12 13]\n [11 12 13 14]\n [12 13 14 15]\n [ 7  7  7  7]\n [ 7  7  7  8]]"
	if id.Str() != wantStack {
		t.Errorf("buf.get(index, 'obs').id =\n%s\nwant\n%s", id.Str(), wantStack)
	}
	// abs(buf.get(index, 'obs')['id'] - buf[index].obs.id).sum().sum() == 0
	byIndex, err := buf.Take(index)
	if err != nil {
		t.Fatal(err)
	}
	if !nd.Equal(id, arrayOf(t, byIndex, "obs.id")) {
		t.Errorf("buf[index].obs.id = %v, want the stacked get %v", arrayOf(t, byIndex, "obs.id"), id)
	}
	all, err := buf.Take(buf.SampleIndices(0, nil))
	if err != nil {
		t.Fatal(err)
	}
	wantNext := "[[ 7  7  7  8]\n [ 7  7  8  9]\n [ 7  8  9 10]\n [ 7  8  9 10]\n [11 11 11 12]\n [11 11 12 13]\n [11 12 13 14]\n [12 13 14 15]\n [12 13 14 15]]"
	if got := arrayOf(t, all, "obs_next.id").Str(); got != wantNext {
		t.Errorf("buf[:].obs_next.id =\n%s\nwant\n%s", got, wantNext)
	}
	full, err := buf.Take([]int{7, 8, 0, 1, 2, 3, 4, 5, 6})
	if err != nil {
		t.Fatal(err)
	}
	if !nd.Equal(arrayOf(t, all, "obs_next.id"), arrayOf(t, full, "obs_next.id")) {
		t.Error("buf[:].obs_next.id differs from buf[full_index].obs_next.id")
	}
}
