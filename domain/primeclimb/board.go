package primeclimb

import "primegames/domain/numbers"

// Home is the centre of the board (PC-7); Start is 0 (PC-8).
const (
	Start = 0
	Home  = 101
)

// Square is one space of the board as the board shows it.
type Square struct {
	Number  int      `json:"number"`
	Factors []int    `json:"factors"` // prime factors with multiplicity, ascending; empty for 0 and 1
	Prime   bool     `json:"prime"`
	Red     bool     `json:"red"` // a prime from 11 to 97: landing here newly earns a Prime Card (PC-10)
	Colors  []string `json:"colors"`
}

// Board returns the 102 squares 0..101. Colours: 2 orange, 3 green, 5 blue, 7 purple, primes above 10
// red; a composite shows one colour per prime factor with multiplicity (12 = orange, orange, green;
// 22 = orange, red). 0 is "start", 1 is "white" and 101, though prime, is "home" as on the board.
func Board() []Square {
	squares := make([]Square, Home+1)
	for n := range squares {
		squares[n] = square(n)
	}
	return squares
}

func square(n int) Square {
	factors := numbers.Factorize(n)
	if factors == nil {
		factors = []int{}
	}
	s := Square{Number: n, Factors: factors, Prime: numbers.IsPrime(n), Red: isRed(n)}
	switch n {
	case Start:
		s.Colors = []string{"start"}
	case 1:
		s.Colors = []string{"white"}
	case Home:
		s.Colors = []string{"home"}
	default:
		s.Colors = make([]string, len(factors))
		for i, f := range factors {
			s.Colors[i] = primeColor(f)
		}
	}
	return s
}

func primeColor(p int) string {
	switch p {
	case 2:
		return "orange"
	case 3:
		return "green"
	case 5:
		return "blue"
	case 7:
		return "purple"
	}
	return "red"
}

// isRed reports whether n is an entirely red space: a prime from 11 to 97 (PC-10; 101 is home).
func isRed(n int) bool { return n >= 11 && n <= 97 && numbers.IsPrime(n) }
