package cli

import (
	"flag"
	"fmt"
	"time"

	"memtrace/engine"
	"memtrace/ollama"
)

// judgeFlags are the flags that put the local Ollama judge in the capture
// pipeline's L3 seat. Without --judge the documented rule-based fallback
// decides, and every capture result says "rules".
type judgeFlags struct {
	model   string
	detail  string // "": the database policy's capture.detail
	cache   string
	timeout time.Duration
	fs      *flag.FlagSet // to tell a --judge-timeout given from its default
}

func addJudgeFlags(fs *flag.FlagSet) *judgeFlags {
	j := &judgeFlags{fs: fs}
	fs.StringVar(&j.model, "judge", "", "Ollama `MODEL` that judges what passed L1/L2 (host from $OLLAMA_HOST); empty: the rule-based fallback")
	fs.StringVar(&j.detail, "detail", "", "how much the judge (or the rules) keeps, `LEVEL`: high (lenient), medium, low (strict) (default: the database policy's capture.detail, medium unless set)")
	fs.StringVar(&j.cache, "judge-cache", "", "JSONL `FILE` of cached verdicts, so a rerun does not ask again (with --judge)")
	fs.DurationVar(&j.timeout, "judge-timeout", ollama.DefaultTimeout, "time limit of one judge request (with --judge)")
	return j
}

// options returns engine options with the judge wired in (checked: the host
// answers and the model is there) and a func that releases its cache. The
// options leave Config zero, so that the engine runs with the database's
// recorded policy (withRecordedPolicy), --detail laid over it (see
// judgeFlags.adjustConfig). A judge flag without --judge is refused: the
// rules decide then, and nothing would be cached or timed.
func (j *judgeFlags) options(e *env) (engine.Options, func(), error) {
	switch j.detail {
	case "", engine.DetailHigh, engine.DetailMedium, engine.DetailLow:
	default:
		return engine.Options{}, nil, usageError{fmt.Sprintf("--detail %q: want high, medium or low", j.detail)}
	}
	o := engine.Options{}
	if j.model == "" {
		if f := givenFlag(j.fs, "judge-cache", "judge-timeout"); f != "" {
			return o, nil, usageError{f + " goes with --judge MODEL: without a judge the rules decide, and nothing is asked, cached or timed"}
		}
		return o, func() {}, nil
	}
	client := ollama.NewClient(ollama.ClientConfig{Timeout: j.timeout, Notify: breakerNotice(e)})
	if _, err := client.ChatModelInfo(e.ctx, j.model); err != nil {
		return o, nil, err
	}
	opts := ollama.Options{Model: j.model}
	release := func() {}
	if j.cache != "" {
		c, err := ollama.NewFileCache(j.cache)
		if err != nil {
			return o, nil, err
		}
		opts.Cache = c
		release = func() { c.Close() }
	}
	o.Judge = ollama.NewCaptureJudge(client, opts)
	return o, release, nil
}

// adjustConfig lays --detail over cfg, the policy the engine opens with.
func (j *judgeFlags) adjustConfig(cfg *engine.Config) {
	if j.detail != "" {
		cfg.Detail = j.detail
	}
}
