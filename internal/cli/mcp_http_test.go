package cli

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds the token to every request of the SDK's HTTP client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestMCPOverHTTPWithToken: --token-file refuses a file others can read,
// and with a private one only a client sending the token is served.
func TestMCPOverHTTPWithToken(t *testing.T) {
	bin := buildMemtrace(t)
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte("c0ffee-token\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, "mcp", "--db", filepath.Join(dir, "a.db"), "--http", "127.0.0.1:0", "--token-file", tokenFile).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "chmod 600") {
		t.Fatalf("world-readable token file: %v %s", err, out)
	}
	if out, err := exec.Command(bin, "mcp", "--db", filepath.Join(dir, "a.db"), "--token-file", tokenFile).CombinedOutput(); err == nil || !strings.Contains(string(out), "--http only") {
		t.Fatalf("--token-file without --http: %v %s", err, out)
	}
	if err := os.Chmod(tokenFile, 0o600); err != nil {
		t.Fatal(err)
	}
	url, _ := startHTTPMCP(t, bin, "mcp", "--db", filepath.Join(dir, "a.db"), "--http", "127.0.0.1:0", "--token-file", tokenFile)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "http-test", Version: "1"}, nil)
	if cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url}, nil); err == nil {
		cs.Close()
		t.Fatal("a client without the token was served")
	}
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{"c0ffee-token"}}}, nil)
	if err != nil {
		t.Fatalf("with the token: %v", err)
	}
	defer cs.Close()
	if lt, err := cs.ListTools(ctx, nil); err != nil || len(lt.Tools) != 5 {
		t.Fatalf("tools/list with the token: %v %v", err, lt)
	}
}
