package propagation

import (
	"math"

	"github.com/drydock-dev/drydock/cluster"
)

// webster deals total out over clusters by weight, starting from no
// seats (see websterSeats).
func webster(total int64, weights []int64, clusters []*cluster.Cluster, descending bool) []int64 {
	names := make([]string, len(clusters))
	for i, c := range clusters {
		names[i] = c.Name
	}
	return websterSeats(total, weights, nil, names, descending)
}

// websterSeats is Karmada's AllocateWebsterSeats: starting from the seats
// in init (nil: none), each of total new seats goes to the party with the
// highest votes/(2*seats+1), compared as float64 as Karmada does; ties go
// to the party with fewer seats, then to the smaller name (the larger
// with descending, see namesDescending). Parties without votes get no new
// seat. It returns every party's seats, init included.
//
// It is arithmetic, not one seat per step: a head start gives each party
// the seats it wins whatever the tie-breaks (see headStart), then the last
// few seats are dealt one by one.
func websterSeats(total int64, votes, init []int64, names []string, descending bool) []int64 {
	seats := make([]int64, len(votes))
	copy(seats, init)
	dealt := headStart(total, votes, seats)
	for n := dealt; n < total; n++ {
		best := -1
		for i, v := range votes {
			if v <= 0 {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			switch c := comparePriority(v, seats[i], votes[best], seats[best]); {
			case c > 0:
				best = i
			case c == 0 && (seats[i] < seats[best] || (seats[i] == seats[best] && (names[i] < names[best]) != descending)):
				best = i
			}
		}
		if best < 0 {
			break
		}
		seats[best]++
	}
	return seats
}

// comparePriority compares v1/(2*s1+1) with v2/(2*s2+1) (votes >= 0,
// seats >= 0) as Karmada does, in float64: -1, 0 or +1. Float division
// is monotone, so a party's priorities never rise as it gains seats, and
// huge votes cannot overflow.
func comparePriority(v1, s1, v2, s2 int64) int {
	p1 := float64(v1) / float64(2*s1+1)
	p2 := float64(v2) / float64(2*s2+1)
	switch {
	case p1 < p2:
		return -1
	case p1 > p2:
		return 1
	}
	return 0
}

// headStart adds to seats the new seats the one-by-one dealing hands out
// before its last ones, and returns how many it added: each party's seats
// whose priority v/(2k+1) is strictly above a threshold, where the
// threshold leaves at most total new seats in all. The dealing hands out
// seats in decreasing priority, so seats strictly above every seat not yet
// dealt come first whatever the tie-breaks. The threshold is found in
// floating point and the result then checked exactly; one seat per party
// is held back for rounding, so at most about two seats per party remain
// to be dealt one by one.
func headStart(total int64, votes, seats []int64) int64 {
	if total <= int64(16*len(votes)) {
		return 0
	}
	count := func(lambda float64) ([]int64, int64) {
		a, sum := make([]int64, len(votes)), int64(0)
		for i, v := range votes {
			if v > 0 && float64(v) > lambda {
				// seats k with v/(2k+1) > lambda: k < (v/lambda - 1)/2
				a[i] = max(0, int64(math.Ceil((float64(v)/lambda-1)/2))-seats[i])
				sum += a[i]
			}
		}
		return a, sum
	}
	lo, hi := 0.0, 0.0
	for _, v := range votes {
		hi = math.Max(hi, float64(v))
	}
	for range 200 { // hi always leaves at most total seats
		mid := (lo + hi) / 2
		if mid <= lo || mid >= hi {
			break
		}
		if _, sum := count(mid); sum > total {
			lo = mid
		} else {
			hi = mid
		}
	}
	a, _ := count(hi)
	for i := range a {
		a[i] = max(0, a[i]-1)
	}
	a = trimToPrefix(a, votes, seats)
	var added int64
	for i := range a {
		seats[i] += a[i]
		added += a[i]
	}
	return added
}

// trimToPrefix takes back new seats from a until every one ranks strictly
// above the best seat not dealt (ties at the boundary would need the
// tie-breaks, so they are left to the one-by-one dealing).
func trimToPrefix(a, votes, seats []int64) []int64 {
	for range 4 * len(votes) {
		head := -1 // the party whose next seat ranks highest
		for j, v := range votes {
			if v > 0 && (head < 0 || comparePriority(v, seats[j]+a[j], votes[head], seats[head]+a[head]) > 0) {
				head = j
			}
		}
		trimmed := false
		for i, v := range votes {
			if a[i] > 0 && comparePriority(v, seats[i]+a[i]-1, votes[head], seats[head]+a[head]) <= 0 {
				a[i]--
				trimmed = true
			}
		}
		if !trimmed {
			return a
		}
	}
	return make([]int64, len(votes))
}
