package session

import "testing"

// TestSlicesSplitAtWholePasses: a run in slices is cut into parts that
// add up to the run, none empty; without a period at total*(k-1)/slices,
// and with one at multiples of it, so that every slice of a workload that
// prepares its statement again every Period operations begins a pass.
func TestSlicesSplitAtWholePasses(t *testing.T) {
	for _, period := range []int{0, 1, 7, 100} {
		for total := 1; total <= 1500; total += 37 {
			for slices := 1; slices <= 7; slices++ {
				s := min(slices, total)
				if period > 1 {
					s = min(s, max(total/period, 1))
				}
				sum := 0
				for k := 1; k <= s; k++ {
					b, e := sliceStart(total, s, period, k), sliceStart(total, s, period, k+1)
					if e <= b {
						t.Fatalf("period %d, %d ops in %d slices: slice %d is [%d, %d)", period, total, s, k, b, e)
					}
					if period > 1 && b%period != 0 {
						t.Errorf("period %d, %d ops in %d slices: slice %d begins at %d, inside a pass", period, total,
							s, k, b)
					}
					if period <= 1 && b != total*(k-1)/s {
						t.Errorf("%d ops in %d slices: slice %d begins at %d, want %d", total, s, k, b, total*(k-1)/s)
					}
					sum += e - b
				}
				if sum != total {
					t.Errorf("period %d, %d ops in %d slices: the slices hold %d", period, total, s, sum)
				}
			}
		}
	}
}
