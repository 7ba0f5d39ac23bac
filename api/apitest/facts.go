package apitest

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// The contract's RefusalFacts is any of the facts schemas; which one a refusal's facts must match
// is set by its code, which a schema cannot say. The check here says it: facts match one of the
// schemas that name their code in x-refusal-codes.

func factsByCode(spec *openapi3.T) map[string][]*openapi3.Schema {
	out := map[string][]*openapi3.Schema{}
	for _, ref := range spec.Components.Schemas {
		codes, _ := ref.Value.Extensions["x-refusal-codes"].([]any)
		for _, code := range codes {
			if name, ok := code.(string); ok {
				out[name] = append(out[name], ref.Value)
			}
		}
	}
	return out
}

// refused is what carries facts: a problem document, or a stored attempt.
type refused struct {
	Code  string          `json:"code"`
	Facts json.RawMessage `json:"facts"`
}

// checkFacts checks the facts of a problem document, or of each attempt of a list of attempts.
func (c *Contract) checkFacts(header interface{ Get(string) string }, body []byte) error {
	ct := header.Get("Content-Type")
	if !strings.HasPrefix(ct, "application/problem+json") && !strings.HasPrefix(ct, "application/json") {
		return nil
	}
	var one refused
	var list struct {
		Items []refused `json:"items"`
	}
	if json.Unmarshal(body, &one) != nil {
		return nil // a JSON array or scalar: nothing here carries facts
	}
	if err := c.checkRefusal(one); err != nil {
		return err
	}
	if json.Unmarshal(body, &list) != nil {
		return nil
	}
	for _, item := range list.Items {
		if err := c.checkRefusal(item); err != nil {
			return err
		}
	}
	return nil
}

func (c *Contract) checkRefusal(r refused) error {
	if r.Code == "" || len(r.Facts) == 0 {
		return nil
	}
	var facts any
	if err := json.Unmarshal(r.Facts, &facts); err != nil {
		return err
	}
	schemas := c.facts[r.Code]
	if len(schemas) == 0 {
		return fmt.Errorf("a refusal %q has facts, but the contract declares no facts for that code: %s", r.Code, r.Facts)
	}
	var errs []string
	for _, s := range schemas {
		err := s.VisitJSON(facts)
		if err == nil {
			return nil
		}
		errs = append(errs, err.Error())
	}
	slices.Sort(errs)
	return fmt.Errorf("the facts of %q match none of the schemas declared for it: %s: %s", r.Code, r.Facts, strings.Join(errs, "; "))
}
