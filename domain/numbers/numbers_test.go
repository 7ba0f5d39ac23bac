package numbers

import (
	"slices"
	"testing"
)

func TestIsPrimeAgainstSieve(t *testing.T) {
	const limit = 1000
	composite := make([]bool, limit+1)
	for i := 2; i*i <= limit; i++ {
		for j := i * i; j <= limit; j += i {
			composite[j] = true
		}
	}
	for n := -3; n <= limit; n++ {
		want := n >= 2 && !composite[n]
		if got := IsPrime(n); got != want {
			t.Errorf("IsPrime(%d) = %v, want %v", n, got, want)
		}
	}
}

// PR-4: composite means at least 4 and not prime, so 0 and 1 are neither.
func TestIsCompositePR4(t *testing.T) {
	for n, want := range map[int]bool{0: false, 1: false, 2: false, 3: false, 4: true, 9: true, 31: false, 34: true} {
		if got := IsComposite(n); got != want {
			t.Errorf("IsComposite(%d) = %v, want %v", n, got, want)
		}
	}
}

func TestFactorizeMultipliesBack(t *testing.T) {
	for n := 2; n <= 1000; n++ {
		product := 1
		factors := Factorize(n)
		for _, f := range factors {
			if !IsPrime(f) {
				t.Fatalf("Factorize(%d) has non-prime %d", n, f)
			}
			product *= f
		}
		if product != n || !slices.IsSorted(factors) {
			t.Fatalf("Factorize(%d) = %v", n, factors)
		}
	}
}

func TestFactorString(t *testing.T) {
	for n, want := range map[int]string{21: "21 = 3 × 7", 13: "13 is prime", 1: "1 has no prime factors", 64: "64 = 2 × 2 × 2 × 2 × 2 × 2"} {
		if got := FactorString(n); got != want {
			t.Errorf("FactorString(%d) = %q, want %q", n, got, want)
		}
	}
}
