package contract

import (
	"context"
	"fmt"

	"github.com/getkin/kin-openapi/openapi3"
)

// Load parses and validates a contract (openapi.yaml, or one merged with other kinds) for
// validating requests and responses with kin-openapi.
//
// The contract is OpenAPI 3.1. For a 3.1 document kin-openapi's request and response filters use a
// JSON Schema 2020-12 validator that compiles the schema anew on every call (a marshal and a
// compile per request body) and whose errors name no JSON pointer, which the service's refusals
// (`facts.pointer`) need. Its own validator reads every 3.1 keyword the contract uses (a list of
// types such as [integer, "null"], {type: "null"} in a oneOf) and gives structured errors, so the
// parsed document is marked 3.0 for the filters; CheckKeywords keeps the contract to those
// keywords.
func Load(data []byte) (*openapi3.T, error) {
	spec, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		return nil, err
	}
	// Examples are checked once, by a test (TestContractExamplesMatchTheirSchemas): for a 3.1
	// document kin-openapi checks them with the JSON Schema 2020 validator, 4 to 8 s of CPU for
	// this contract, which every process that loads it would pay at start.
	if err := spec.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
		return nil, err
	}
	if err := CheckKeywords(spec); err != nil {
		return nil, err
	}
	spec.OpenAPI = "3.0.3" // after Validate, which checks 3.1's forms as 3.1's
	return spec, nil
}

// CheckKeywords refuses a contract that uses a JSON Schema keyword kin-openapi's own
// validator ignores (const, if/then/else, prefixItems, …): Load validates with that one.
func CheckKeywords(spec *openapi3.T) error {
	for name, ref := range spec.Components.Schemas {
		var bad error
		_ = ref.WalkSubtree(func(path string, s *openapi3.SchemaRef) error {
			if v := s.Value; v != nil && bad == nil && usesJSONSchema2020Only(v) {
				bad = fmt.Errorf("schema %s%s uses a keyword the service's validator does not read (const, if/then/else, prefixItems, contains, patternProperties, dependent*, propertyNames, unevaluated*, $defs, contentSchema)", name, path)
			}
			return nil
		})
		if bad != nil {
			return bad
		}
	}
	return nil
}

func usesJSONSchema2020Only(s *openapi3.Schema) bool {
	return s.Const != nil || len(s.PrefixItems) != 0 || s.Contains != nil || len(s.PatternProperties) != 0 ||
		len(s.DependentSchemas) != 0 || len(s.DependentRequired) != 0 || s.PropertyNames != nil ||
		s.UnevaluatedItems.Has != nil || s.UnevaluatedItems.Schema != nil ||
		s.UnevaluatedProperties.Has != nil || s.UnevaluatedProperties.Schema != nil ||
		s.If != nil || s.Then != nil || s.Else != nil || len(s.Defs) != 0 || s.ContentSchema != nil
}
