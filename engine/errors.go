package engine

import (
	"errors"
	"fmt"
)

// Error codes of domain failures. The CLI and the UI print Message (and what
// to do next), never raw driver text.
const (
	ECONFLICT = "conflict"
	ECORRUPT  = "corrupt" // the database file is damaged: restore from a backup
	EINTERNAL = "internal"
	EINVALID  = "invalid"
	ENOTFOUND = "not_found"
	EUNAVAIL  = "unavailable"
)

// Error is a domain error with a code and a human message.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return e.Message }

// Errorf returns an *Error with the given code.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of an *Error in err's chain, or EINTERNAL.
func ErrorCode(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the human message of an *Error in err's chain, or the
// error text.
func ErrorMessage(err error) string {
	var e *Error
	if err == nil {
		return ""
	} else if errors.As(err, &e) {
		return e.Message
	}
	return err.Error()
}
