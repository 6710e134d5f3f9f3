package engine

import (
	"encoding/json"
	"fmt"
)

// String renders a line error the way the CLI prints it: "line N: …".
func (l LineError) String() string { return fmt.Sprintf("line %d: %s", l.Line, l.Error) }

// MessageID reads a message's id: a JSON string or an integer.
func MessageID(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String(), nil
	}
	return "", fmt.Errorf(`"id" must be a string or a number, not %s`, raw)
}
