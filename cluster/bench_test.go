package cluster_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/gorl/gorl/cluster"
)

// BenchmarkWeightBroadcast publishes a new version of a 1 MiB or 10 MiB
// parameter blob on the embedded server and waits until 1 or 4 fetchers
// (actors, each on its own connection) hold it: one op is one broadcast.
// The blob crosses in chunks of the payload limit less 1 KiB.
func BenchmarkWeightBroadcast(b *testing.B) {
	for _, size := range []int{1 << 20, 10 << 20} {
		for _, fetchers := range []int{1, 4} {
			b.Run(fmt.Sprintf("size=%dMiB/fetchers=%d", size>>20, fetchers), func(b *testing.B) {
				srv := startNode(b, cluster.Options{Listen: true})
				ps, err := cluster.ServeParams(srv.Transport(), "bench", "w", srv.MaxPayload()-1024)
				if err != nil {
					b.Fatal(err)
				}
				defer ps.Close()
				var trs []cluster.Transport
				for range fetchers {
					trs = append(trs, startNode(b, cluster.Options{URLs: []string{srv.URL()}}).Transport())
				}
				blob := make([]byte, size)
				for i := range blob {
					blob[i] = byte(i)
				}
				ctx := context.Background()
				errs := make([]error, fetchers)
				b.SetBytes(int64(size))
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					v := uint64(i + 1)
					var wg sync.WaitGroup
					for k, tr := range trs {
						wg.Add(1)
						go func() {
							defer wg.Done()
							got, data, err := cluster.FetchParams(ctx, tr, "bench", "w", v-1)
							if err == nil && (got != v || len(data) != size) {
								err = fmt.Errorf("version %d of %d bytes, want %d of %d", got, len(data), v, size)
							}
							errs[k] = err
						}()
					}
					if err := ps.Publish(v, blob); err != nil {
						b.Fatal(err)
					}
					wg.Wait()
					for _, err := range errs {
						if err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
