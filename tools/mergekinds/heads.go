package main

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// The server answers HEAD on every GET as that GET without its body (api/head.go). declareHeads
// writes that into the contract: beside every `get` operation a `head` one made from it, with the
// same parameters and security and the GET's statuses and their headers, without content. Made
// anew on every merge, they cannot drift from the GETs; a `head` written by hand is replaced.
const (
	operationIndent = "    " // a path item's operations, under `paths:`
	headKey         = operationIndent + "head:"
	headNote        = "made from the get above by `go generate ./api/openapi` (tools/mergekinds): edit the get"
)

func declareHeads(contract []byte) ([]byte, error) {
	lines := withoutHeads(strings.SplitAfter(string(contract), "\n"))
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(strings.Join(lines, "")), &doc); err != nil {
		return nil, err
	}
	root := doc.Content[0]
	paths, responses := valueOf(root, "paths"), valueOf(valueOf(root, "components"), "responses")
	if paths == nil {
		return nil, fmt.Errorf("the contract has no paths")
	}
	after := map[int]string{} // a line's index → the head operation to write after it
	for i := 0; i+1 < len(paths.Content); i += 2 {
		path, item := paths.Content[i].Value, paths.Content[i+1]
		getKey := keyOf(item, "get")
		if getKey == nil {
			continue
		}
		head, err := headOf(path, valueOf(item, "get"), responses)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		after[lastLineOf(lines, getKey.Line-1)] = head
	}
	var out strings.Builder
	for i, line := range lines {
		out.WriteString(line)
		if head, ok := after[i]; ok {
			out.WriteString(head)
		}
	}
	return []byte(out.String()), nil
}

// withoutHeads drops the head operations of the contract's paths.
func withoutHeads(lines []string) []string {
	var kept []string
	inPaths, inHead := false, false
	for _, line := range lines {
		if indent, blank := indentOf(line); !blank {
			if indent == 0 {
				inPaths = strings.HasPrefix(line, "paths:")
			}
			if indent <= len(operationIndent) {
				inHead = inPaths && strings.HasPrefix(line, headKey)
			}
		}
		if !inHead {
			kept = append(kept, line)
		}
	}
	return kept
}

// lastLineOf is the index of the last line of the operation whose key is at lines[start].
func lastLineOf(lines []string, start int) int {
	last := start
	for i := start + 1; i < len(lines); i++ {
		indent, blank := indentOf(lines[i])
		if blank {
			continue
		}
		if indent <= len(operationIndent) {
			break
		}
		last = i
	}
	return last
}

func indentOf(line string) (indent int, blank bool) {
	trimmed := strings.TrimLeft(line, " ")
	return len(line) - len(trimmed), strings.TrimSpace(trimmed) == ""
}

// headOf is the head operation of get, the operation at path, as YAML text indented to stand
// beside it.
func headOf(path string, get, responses *yaml.Node) (string, error) {
	id := valueOf(get, "operationId")
	if id == nil {
		return "", fmt.Errorf("the get operation has no operationId")
	}
	description := fmt.Sprintf("Answered as `GET %s` (`%s`): the same parameters, statuses and headers, and no body.", path, id.Value)
	if strings.HasSuffix(path, "/events") {
		description += " An event stream answers with the status and headers it would start with, then ends: no event is sent and the stream is not held open."
	}
	head := mapping(
		"operationId", scalar(headID(id.Value)),
		"tags", copied(valueOf(get, "tags")),
		"summary", scalar("The status and headers of `"+id.Value+"`, without its body."),
		"description", scalar(description),
		"security", copied(valueOf(get, "security")),
		"parameters", copied(valueOf(get, "parameters")),
	)
	gets := valueOf(get, "responses")
	if gets == nil {
		return "", fmt.Errorf("the get operation has no responses")
	}
	heads := mapping()
	for i := 0; i+1 < len(gets.Content); i += 2 {
		response := gets.Content[i+1]
		if ref := valueOf(response, "$ref"); ref != nil {
			response = valueOf(responses, strings.TrimPrefix(ref.Value, "#/components/responses/"))
			if response == nil {
				return "", fmt.Errorf("no response %s", ref.Value)
			}
		}
		heads.Content = append(heads.Content, copied(gets.Content[i]),
			mapping("description", copied(valueOf(response, "description")), "headers", copied(valueOf(response, "headers"))))
	}
	head.Content = append(head.Content, scalar("responses"), heads)

	key := scalar("head")
	key.LineComment = headNote
	var text bytes.Buffer
	enc := yaml.NewEncoder(&text)
	enc.SetIndent(2)
	if err := enc.Encode(mapping(key, head)); err != nil {
		return "", err
	}
	var indented strings.Builder
	for line := range strings.Lines(text.String()) {
		indented.WriteString(operationIndent + line)
	}
	return indented.String(), nil
}

// headID is the operationId of a get's head: getGame's is headGame, listActions's headListActions.
func headID(getID string) string {
	if rest, ok := strings.CutPrefix(getID, "get"); ok && rest != "" && unicode.IsUpper(rune(rest[0])) {
		return "head" + rest
	}
	return "head" + strings.ToUpper(getID[:1]) + getID[1:]
}

// mapping is a YAML mapping of keys (strings or nodes) and values; a nil value leaves its key out.
func mapping(pairs ...any) *yaml.Node {
	m := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(pairs); i += 2 {
		value := pairs[i+1].(*yaml.Node)
		if value == nil {
			continue
		}
		key, ok := pairs[i].(*yaml.Node)
		if !ok {
			key = scalar(pairs[i].(string))
		}
		m.Content = append(m.Content, key, value)
	}
	return m
}

func scalar(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// copied is a copy of n without its comments and its place in the source; nil for nil.
func copied(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := &yaml.Node{Kind: n.Kind, Style: n.Style, Tag: n.Tag, Value: n.Value, Anchor: n.Anchor}
	for _, child := range n.Content {
		c.Content = append(c.Content, copied(child))
	}
	return c
}

func keyOf(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i]
		}
	}
	return nil
}

func valueOf(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}
