package cli

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"memtrace/internal/safetext"
	"memtrace/ollama"
)

// judgeCheckReport is the `memtrace judge check --json` output.
type judgeCheckReport struct {
	Host          string           `json:"host"`
	Model         ollama.ModelInfo `json:"model"`
	PromptVersion string           `json:"prompt_version"`
	PromptHash    string           `json:"prompt_hash"`
	Chat          ollama.Probe     `json:"chat"`
}

// cmdJudgeCheck runs `memtrace judge check`: is Ollama reachable at OLLAMA_HOST,
// is the judge model there and able to chat (an embedding-only model is
// refused), does one short chat with `format` come back as JSON and how
// fast, and which digest would verdicts be pinned to.
func cmdJudgeCheck(fs *flag.FlagSet) runFunc {
	model := fs.String("model", judgeModelFromEnv(), "judge `MODEL` ($MEMTRACE_JUDGE_MODEL sets the default)")
	timeout := fs.Duration("timeout", 30*time.Second, "per-request timeout")
	asJSON := fs.Bool("json", false, "print JSON")
	return func(e *env, args []string) error {
		if len(args) > 0 {
			return usageError{fmt.Sprintf("unexpected argument %q", args[0])}
		}
		c := ollama.NewClient(ollama.ClientConfig{Timeout: *timeout})
		mi, err := c.ChatModelInfo(e.ctx, *model)
		if err != nil {
			return err
		}
		probe, err := c.Probe(e.ctx, *model)
		if err != nil {
			return err
		}
		r := judgeCheckReport{Host: c.Host(), Model: mi, PromptVersion: ollama.PromptVersion, PromptHash: ollama.PromptHash(), Chat: probe}
		if *asJSON {
			return writeJSON(e.stdout, r)
		}
		fmt.Fprintf(e.stdout, "host     %s\n", r.Host)
		fmt.Fprintf(e.stdout, "model    %s (%s %s %s)\n", mi.Model, mi.Family, mi.ParameterSize, mi.QuantizationLevel)
		fmt.Fprintf(e.stdout, "digest   %s\n", mi.Digest)
		fmt.Fprintf(e.stdout, "caps     %s\n", strings.Join(mi.Capabilities, ", "))
		fmt.Fprintf(e.stdout, "prompts  %s %s\n", r.PromptVersion, r.PromptHash)
		fmt.Fprintf(e.stdout, "chat     %s: %s\n", probe, safetext.SanitizeLine(probe.Answer))
		fmt.Fprintln(e.stdout, "ok: the judge is ready")
		return nil
	}
}

// breakerNotice tells the user, once and loudly on stderr, that the judge's
// breaker tripped and the rest of the run goes without it.
func breakerNotice(e *env) func(string) {
	return func(msg string) { fmt.Fprintf(e.stderr, "memtrace: WARNING: %s\n", msg) }
}

// judgeModelFromEnv is $MEMTRACE_JUDGE_MODEL, or ollama.DefaultModel.
func judgeModelFromEnv() string {
	if v := os.Getenv("MEMTRACE_JUDGE_MODEL"); v != "" {
		return v
	}
	return ollama.DefaultModel
}
