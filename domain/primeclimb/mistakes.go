package primeclimb

import "encoding/json"

// FigureIllegalSteps is the figure of the class statistics made from steps that left the board
// (PC-5): each counted under its operation and reason, such as "multiply_past_101".
const FigureIllegalSteps = "illegal_steps"

// mistake counts an arithmetic step off the board; a step after the win is no arithmetic mistake.
func mistake(code string, facts json.RawMessage) (figure, value string, ok bool) {
	if code != "illegal_step" {
		return "", "", false
	}
	var step IllegalStepFacts
	if err := json.Unmarshal(facts, &step); err != nil || step.Op == "" || step.Reason == ReasonAfterWin {
		return "", "", false
	}
	return FigureIllegalSteps, step.Op + "_" + step.Reason, true
}
