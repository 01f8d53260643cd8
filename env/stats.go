package env

import (
	"fmt"
	"maps"
	"time"
)

// EpisodeStats summarizes a finished episode; RecordEpisodeStatistics puts
// it in the Info of the episode's last step under the key "episode"
// (Gymnasium's {"r", "l", "t"}).
type EpisodeStats struct {
	Return  float64       // sum of the episode's rewards
	Length  int           // number of steps
	Elapsed time.Duration // wall-clock time from Reset to the last step
}

// RecordEpisodeStatistics adds the statistics of each episode to the Info
// of its last step, Gymnasium's RecordEpisodeStatistics. That Info is a new
// map holding the wrapped env's entries and "episode": an EpisodeStats (one
// allocation per episode); other steps return the wrapped env's Info as it
// is. The running return and length are saved with the env's state.
type RecordEpisodeStatistics struct {
	wrapper
	ret      float64
	length   int
	start    time.Time
	episodes int
}

// NewRecordEpisodeStatistics wraps e.
func NewRecordEpisodeStatistics(e Env) *RecordEpisodeStatistics {
	return &RecordEpisodeStatistics{wrapper: wrapper{e}}
}

// Episodes returns the number of episodes that have ended.
func (s *RecordEpisodeStatistics) Episodes() int { return s.episodes }

// Reset resets the wrapped env and the running statistics.
func (s *RecordEpisodeStatistics) Reset(seed Seed) (any, Info, error) {
	s.ret, s.length, s.start = 0, 0, time.Now()
	return s.inner.Reset(seed)
}

// Step steps the wrapped env and, at the end of an episode, adds its
// statistics to the Info.
func (s *RecordEpisodeStatistics) Step(action any) (any, float64, bool, bool, Info, error) {
	obs, r, term, trunc, info, err := s.inner.Step(action)
	if err != nil {
		return obs, r, term, trunc, info, err
	}
	s.ret += r
	s.length++
	if term || trunc {
		s.episodes++
		ended := make(Info, len(info)+1)
		maps.Copy(ended, info)
		ended["episode"] = EpisodeStats{Return: s.ret, Length: s.length, Elapsed: time.Since(s.start)}
		info = ended
	}
	return obs, r, term, trunc, info, nil
}

const recordEpisodeStatisticsTag = "RecordEpisodeStatistics/1"

// MarshalState returns the running return, length, elapsed time and
// episode count with the wrapped env's state.
func (s *RecordEpisodeStatistics) MarshalState() ([]byte, error) {
	return marshalWrapper(recordEpisodeStatisticsTag, func(w *stateWriter) {
		w.float(s.ret)
		w.uint(uint64(s.length))
		w.uint(uint64(time.Since(s.start)))
		w.uint(uint64(s.episodes))
	}, s.inner)
}

// UnmarshalState restores a state MarshalState returned; the elapsed time
// continues from the saved value.
func (s *RecordEpisodeStatistics) UnmarshalState(data []byte) error {
	var ret float64
	var length, elapsed, episodes uint64
	return unmarshalWrapper(data, recordEpisodeStatisticsTag, func(r *stateReader) {
		ret, length, elapsed, episodes = r.float(), r.uint(), r.uint(), r.uint()
		const maxInt = uint64(^uint(0) >> 1)
		if r.err == nil && (length > maxInt || elapsed > maxInt || episodes > maxInt) {
			r.fail("counter out of range")
		}
	}, s.inner, func() {
		s.ret, s.length, s.episodes = ret, int(length), int(episodes)
		s.start = time.Now().Add(-time.Duration(elapsed))
	})
}

// String returns the statistics as "return 12.000, length 12, 1.2ms".
func (e EpisodeStats) String() string {
	return fmt.Sprintf("return %.3f, length %d, %v", e.Return, e.Length, e.Elapsed)
}
