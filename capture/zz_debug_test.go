package capture

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestZZDebugFind(t *testing.T) {
	r := newSupersedeRule()
	for _, s := range strings.Split(os.Getenv("ZZ"), "|") {
		f := r.find(s)
		fmt.Printf("%q\n  marker=%q guard=%q terms=%v obj=%v subj=%v people=%v open=%v retract=%v said=%v\n", s, f.Marker, f.Guard, f.Terms, f.Object, f.Subjects, f.People, f.Open, f.Retract, f.Said)
	}
}
