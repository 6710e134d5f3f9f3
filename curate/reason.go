package curate

import (
	"fmt"
	"strings"

	"memtrace/engine"
)

// ShownReason is a proposal's reason as the CLI and the Curate tab show
// it: the proposer's words, then what became of the proposal, written from
// the fields that record it (WithdrawnBy, RejectNote), never stored in the
// reason.
func ShownReason(p *engine.Proposal) string {
	parts := []string{strings.TrimSpace(p.Reason)}
	if p.Status == engine.ProposalWithdrawn && p.WithdrawnBy != 0 {
		parts = append(parts, fmt.Sprintf("withdrawn: moot after proposal %d was applied in batch %s", p.WithdrawnBy, p.Batch))
	}
	if p.Status == engine.ProposalRejected && p.RejectNote != "" {
		parts = append(parts, "rejected: "+p.RejectNote)
	}
	return strings.TrimPrefix(strings.Join(parts, "; "), "; ")
}
