// Package numbers holds the arithmetic facts both games teach: primes, composites and factorisations.
package numbers

import (
	"strconv"
	"strings"
)

// IsPrime reports whether n is a prime number.
func IsPrime(n int) bool {
	if n < 2 {
		return false
	}
	if n%2 == 0 {
		return n == 2
	}
	for d := 3; d*d <= n; d += 2 {
		if n%d == 0 {
			return false
		}
	}
	return true
}

// IsComposite reports whether n is a composite number: at least 4 and not prime (PR-4).
func IsComposite(n int) bool { return n >= 4 && !IsPrime(n) }

// Factorize returns the prime factors of n in ascending order, with multiplicity. It returns nil for
// n < 2.
func Factorize(n int) []int {
	var factors []int
	for d := 2; d*d <= n; d++ {
		for n%d == 0 {
			factors = append(factors, d)
			n /= d
		}
	}
	if n >= 2 {
		factors = append(factors, n)
	}
	return factors
}

// FactorString writes n as a product of primes for people: "21 = 3 × 7", "13 is prime",
// "1 has no prime factors".
func FactorString(n int) string {
	factors := Factorize(n)
	switch {
	case len(factors) == 0:
		return strconv.Itoa(n) + " has no prime factors"
	case len(factors) == 1:
		return strconv.Itoa(n) + " is prime"
	}
	parts := make([]string, len(factors))
	for i, f := range factors {
		parts[i] = strconv.Itoa(f)
	}
	return strconv.Itoa(n) + " = " + strings.Join(parts, " × ")
}
