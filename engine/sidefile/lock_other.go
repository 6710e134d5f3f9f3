//go:build !(linux || darwin || freebsd)

package sidefile

// Lock is a no-op without flock: a writer's check and rename are then not
// atomic against an eraser's remove.
func Lock(string) (func(), error) { return func() {}, nil }
