// Package inspector looks at the recall pipeline without touching the
// store: read-only recalls at any time (the time override), a comparison of
// what one query recalls at two times (what is forgotten, what rises, what
// falls, what is new), the forecast of what will be forgotten next, and the
// export of a trace as OpenTelemetry-style spans.
//
// It calls the engine and never SQL. Every function here leaves the
// database file byte for byte as it was.
package inspector
