package primeclimb

import (
	"fmt"
	"strconv"
)

var opSymbol = map[string]string{OpAdd: "+", OpSubtract: "−", OpMultiply: "×", OpDivide: "÷"}

// applyOp computes from op n and reports whether the result is a whole number in 0..101 (PC-5). A pawn
// on 0 may be multiplied or divided and stays on 0.
func applyOp(from int, op string, n int) (int, bool) {
	switch op {
	case OpAdd:
		return from + n, from+n <= Home
	case OpSubtract:
		return from - n, from-n >= Start
	case OpMultiply:
		return from * n, from*n <= Home
	case OpDivide:
		if n == 0 || from%n != 0 {
			return 0, false
		}
		return from / n, true
	}
	return 0, false
}

// equation writes a step for people: "30 + 7 = 37", "37 ÷ 4".
func equation(from int, op string, n, to int) string {
	return string(appendEquation(make([]byte, 0, 16), from, op, n, to))
}

// appendEquation appends equation(from, op, n, to) to b, without its "from " when from is negative
// (a step that goes on from the one before it: "× 4 = 96").
func appendEquation(b []byte, from int, op string, n, to int) []byte {
	if from >= 0 {
		b = append(strconv.AppendInt(b, int64(from), 10), ' ')
	}
	b = append(append(b, opSymbol[op]...), ' ')
	b = append(strconv.AppendInt(b, int64(n), 10), " = "...)
	return strconv.AppendInt(b, int64(to), 10)
}

// whyNot explains in words why from op n is not allowed: "37 × 3 = 111 is past 101",
// "37 ÷ 4 is not a whole number", "3 − 7 = −4 is below 0".
func whyNot(from int, op string, n int) string {
	switch op {
	case OpAdd:
		return fmt.Sprintf("%d + %d = %d is past 101", from, n, from+n)
	case OpSubtract:
		return fmt.Sprintf("%d − %d = −%d is below 0", from, n, n-from)
	case OpMultiply:
		return fmt.Sprintf("%d × %d = %d is past 101", from, n, from*n)
	}
	return fmt.Sprintf("%d ÷ %d is not a whole number", from, n)
}

// signOp maps a keeper's sign to the operation it performs.
func signOp(sign string) string {
	if sign == "-" {
		return OpSubtract
	}
	return OpAdd
}

// diceOps are the operations a die may use; under a Curse only subtract and divide (PC-12).
func diceOps(cursed bool) []string {
	if cursed {
		return []string{OpSubtract, OpDivide}
	}
	return []string{OpAdd, OpSubtract, OpMultiply, OpDivide}
}
