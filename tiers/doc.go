// Package tiers owns the memory's life over time: the heartbeat that
// proposes demotion, archiving, quarantine and promotion of lessons from
// what each memory's use and forgetting curve say (never applying them:
// package curate does, with a curator), and the Markdown tiers — HOT.md,
// WARM and COLD files per scope — exported from the store and read back
// with the curator in the loop.
package tiers
