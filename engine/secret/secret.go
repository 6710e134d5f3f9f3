// Package secret finds credentials, keys, tokens and card numbers in text
// and replaces each value with a typed placeholder ("[secret:password]"),
// so that a memory keeps the statement and never the value. Every door of
// memtrace (capture, the importers, `add`, MCP) calls Redact before
// anything else sees the text: nothing downstream — the store, the
// embedder, the judge, traces, exports — ever receives the raw value.
//
// The patterns are one table (Patterns), printed by `memtrace help secrets`
// and tested by its own examples. They are memtrace's own rather than a
// library's: the well-kept Go rule sets (gitleaks' config, trufflehog's
// detectors) are built for source code and commits — hundreds of rules
// tuned with entropy thresholds and keyword prefilters, trufflehog's
// verifying keys over the network — and come as whole applications with
// their dependency trees; conversation text needs a few dozen documented
// token shapes, natural-language forms ("my password is …", "비밀번호는 …")
// those rule sets do not have, and no false redaction of ordinary prose.
package secret

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Pattern is one row of the table: Name is what the drop log counts and
// the placeholder's type; Shape says in words what it matches; Example is
// a text it redacts (tested).
type Pattern struct {
	Name    string
	Shape   string
	Example string
	re      *regexp.Regexp
	// group is the submatch that holds the value (0: the whole match).
	group int
	// check, when set, must accept the value (Luhn, a value that looks
	// like a secret rather than a word).
	check func(value, form string) bool
	// alt is a second submatch that holds the value when group did not
	// take part (0: none).
	alt int
	// hints are lowercase strings one of which a text must hold for the
	// pattern to be tried (a cheap look before the regexp, on the path of
	// every captured message); minDigits, when set, is how many digits it
	// must hold instead.
	hints     []string
	minDigits int
	// notInURL: a match inside a URL (no space between it and a "://"
	// before it) is not this secret — an image link's signed query
	// (…jpg?token=eyJ…) or a digit run in a file name is part of an
	// address shared to be opened, not a credential someone typed.
	notInURL bool
	// formGroup is the submatch with the assignment's form ("is", "=", ":")
	// passed to check; 0 for none.
	formGroup int
}

// Placeholder is the text that replaces a value of pattern name.
func Placeholder(name string) string { return "[secret:" + name + "]" }

// Patterns is the table, most specific first: a value a specific shape
// matched is not matched again by a generic one.
var Patterns = []*Pattern{
	{Name: "private_key", hints: []string{"private key"}, Shape: "a PEM private-key block: -----BEGIN … PRIVATE KEY----- to its END line (or the end of the text)",
		Example: "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----",
		re:      regexp.MustCompile(`-----BEGIN[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----(?s:.*?)(?:-----END[A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----|\z)`)},
	{Name: "aws_access_key", hints: []string{"akia", "asia", "abia", "acca", "a3t"}, Shape: "an AWS access key id: AKIA, ASIA, ABIA or ACCA and 16 capitals or digits",
		Example: "key AKIAIOSFODNN7EXAMPLE in the config",
		re:      regexp.MustCompile(`\b(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}\b`)},
	{Name: "aws_secret_key", hints: []string{"aws"}, Shape: "an AWS secret access key: 40 base64 characters after aws…secret… = or :",
		Example: "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		re:      regexp.MustCompile(`(?i)aws.{0,20}?secret.{0,20}?\s*[=:]\s*["']?([A-Za-z0-9/+]{40})\b`), group: 1},
	{Name: "github_token", hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, Shape: "a GitHub token: ghp_, gho_, ghu_, ghs_ or ghr_ and 36 letters or digits; github_pat_ and 22 or more",
		Example: "export GH=ghp_16C7e42F292c6912E7710c838347Ae178B4a",
		re:      regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b`)},
	{Name: "gitlab_token", hints: []string{"glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "gloas-", "gr1348941"}, Shape: "a GitLab token: glpat-, gldt-, glrt-, glptt- or GR1348941 and 20 or more characters",
		Example: "token glpat-xK9mQ2vR7tY4wZ1aB3cD for CI",
		re:      regexp.MustCompile(`\b(?:glpat|gldt|glrt|glptt|glcbt|gloas)-[A-Za-z0-9_\-]{20,}|\bGR1348941[A-Za-z0-9_\-]{20,}`)},
	{Name: "slack_token", hints: []string{"xox", "hooks.slack.com"}, Shape: "a Slack token (xoxb-, xoxp-, xoxa-, xoxr-, xoxs-, xoxe-) or an incoming-webhook URL",
		Example: "bot token xoxb-2401234567-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
		re:      regexp.MustCompile(`\bxox[abeprs]-[A-Za-z0-9-]{10,}|https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9/_\-]{20,}`)},
	{Name: "anthropic_key", hints: []string{"sk-ant-"}, Shape: "an Anthropic API key: sk-ant- and 20 or more characters",
		Example: "ANTHROPIC=sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz012345",
		re:      regexp.MustCompile(`\bsk-ant-[A-Za-z0-9_\-]{20,}`)},
	{Name: "openai_key", hints: []string{"sk-"}, Shape: "an OpenAI-style API key: sk- (or sk-proj-, sk-svcacct-) and 20 or more letters, digits, - or _",
		Example: "use sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z for the bot",
		re:      regexp.MustCompile(`\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{20,}`), check: mixedToken},
	{Name: "google_api_key", hints: []string{"aiza"}, Shape: "a Google API key: AIza and 35 letters, digits, - or _",
		Example: "maps key AIzaSyDaGmWKa4JsXZ-HjGw7ISLn_3namBGewQe",
		re:      regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}\b`)},
	{Name: "stripe_key", hints: []string{"_live_", "_test_"}, Shape: "a Stripe key: sk_, rk_ or pk_ with live_ or test_ and 16 or more letters or digits",
		Example: "stripe sk_live_4eC39HqLyjWDarjtT1zdp7dc",
		re:      regexp.MustCompile(`\b(?:sk|rk|pk)_(?:live|test)_[0-9a-zA-Z]{16,}\b`)},
	{Name: "sendgrid_key", hints: []string{"sg."}, Shape: "a SendGrid API key: SG. then 22 and 43 base64url characters, dot-separated",
		Example: "SENDGRID=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",
		re:      regexp.MustCompile(`\bSG\.[A-Za-z0-9_\-]{16,32}\.[A-Za-z0-9_\-]{16,64}`)},
	{Name: "huggingface_token", hints: []string{"hf_"}, Shape: "a Hugging Face token: hf_ and 34 or more letters",
		Example: "HF hf_jKqLmNoPqRsTuVwXyZaBcDeFgHiJkLmNoPq",
		re:      regexp.MustCompile(`\bhf_[A-Za-z0-9]{34,}\b`)},
	{Name: "npm_token", hints: []string{"npm_"}, Shape: "an npm access token: npm_ and 36 letters or digits",
		Example: "//registry/:_authToken=npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
		re:      regexp.MustCompile(`\bnpm_[A-Za-z0-9]{36}\b`)},
	{Name: "jwt", hints: []string{"eyj"}, Shape: "a JSON Web Token: three base64url parts, the first two starting eyJ",
		Example: "Authorization: eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		re:      regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{10,}`), notInURL: true},
	{Name: "bearer_token", hints: []string{"bearer"}, Shape: "an HTTP bearer token: Bearer and 20 or more token characters",
		Example: "curl -H 'Authorization: Bearer abcdef0123456789abcdef01'",
		re:      regexp.MustCompile(`(?i)\bbearer\s+([A-Za-z0-9._~+/=\-]{20,})`), group: 1, check: mixedToken},
	{Name: "url_password", hints: []string{"://"}, Shape: "a URL or DSN with a password: scheme://user:PASSWORD@host (the password only)",
		Example: "connect to postgres://app:s3cr3t-pw@db.internal:5432/app",
		re:      regexp.MustCompile(`\b[A-Za-z][A-Za-z0-9+.\-]*://[^/\s:@"']*:([^/\s@"']+)@`), group: 1, check: notPlaceholder},
	{Name: "basic_auth", hints: []string{"-u", "--user"}, Shape: "user:PASSWORD after curl's -u / --user (the password only)",
		Example: "curl -u deploy:Gr4vel-Road-19 https://ci.example/api",
		re:      regexp.MustCompile(`(?:^|\s)(?:-u|--user)[ =]["']?[^\s:"']+:([^\s"']+)`), group: 1, check: assigned},
	{Name: "password_quoted", hints: []string{"pass", "pwd", "pw"}, Shape: "password / passphrase / pwd / pw, up to 30 characters (\"for my gpg key\"), then is, = or : and a quoted value (spaces and all)",
		Example: `the passphrase for my key is "correct horse battery staple 77"`,
		re:      regexp.MustCompile(`(?i)\b[a-z0-9_]*?(?:password|passwd|passcode|pwd|pw|passphrase)s?\b[^"'\n=:]{0,30}?\s*(?:\bis|\bwas|=|:=|:)\s*(?:"([^"\n]{4,})"|'([^'\n]{4,})')`), group: 1, alt: 2, check: assigned},
	{Name: "password", hints: []string{"pass", "pwd", "pw"}, Shape: "password / passwd / pwd / pw / passphrase / passcode (also PGPASSWORD, db_password …) then is, =, :, := or a space and the value; after \"is\", \":\" or a space the value must look like one (a digit or symbol, or 12+ characters)",
		Example: "My password is hunter2-staging-9",
		re:      regexp.MustCompile(`(?i)\b[a-z0-9_]*?(?:password|passwd|passcode|pwd|pw|passphrase)s?\b(\s*(?:is|was|=|:=|:|=>)\s*|\s+(?:is|was)\s+(?:now\s+)?|\s+)["'` + "`" + `]?([^\s"'` + "`" + `,;)]+)`), group: 2, formGroup: 1, check: assigned},
	{Name: "api_key", hints: []string{"key", "secret"}, Shape: "api_key / apikey / access_key / auth_key / private_key then is, =, : and the value (as for password)",
		Example: "API_KEY=9f8e7d6c5b4a3f2e1d0c",
		re:      regexp.MustCompile(`(?i)\b[a-z0-9_]*?(?:api[_-]?key|access[_-]?key|auth[_-]?key|private[_-]?key|client[_-]?secret)s?\b(\s*(?:is|was|=|:=|:|=>)\s*|\s+(?:is|was)\s+)["'` + "`" + `]?([^\s"'` + "`" + `,;)]+)`), group: 2, formGroup: 1, check: assigned},
	{Name: "token", hints: []string{"token", "secret"}, Shape: "token / secret (also GITHUB_TOKEN, client_secret …) then is, =, : and the value (as for password)",
		Example: "SECRET_TOKEN: 7f3a9c2e1b8d4f60",
		re:      regexp.MustCompile(`(?i)\b[a-z0-9_]*?(?:token|secret)\b(\s*(?:is|was|=|:=|:|=>)\s*|\s+(?:is|was)\s+)["'` + "`" + `]?([^\s"'` + "`" + `,;)]+)`), group: 2, formGroup: 1, check: assigned},
	{Name: "password_ko", hints: []string{"비밀", "패스워드", "암호", "비번", "토큰", "키", "시크릿"}, Shape: "Korean: 비밀번호 / 패스워드 / 암호 / 비번 / 토큰 / API 키 / 인증키 then 는·은·가·이·를·을·: or = and an ASCII value (a digit or symbol, or 8+ characters); the particle after the value stays",
		Example: "내 비밀번호는 sunflower77이야",
		re:      regexp.MustCompile(`(비밀\s?번호|패스워드|암호|비번|토큰|(?i:api)\s?키|인증\s?키|시크릿)\s*(는|은|가|이|를|을|도)?\s*(?:바로\s*|그냥\s*)?["'` + "`" + `]?([\x21-\x7e]+)`), group: 3, formGroup: 2, check: assignedKO},
	{Name: "pw_ko", hints: []string{"pw"}, Shape: "Korean: pw or pwd as a word, then a particle (는·은·가·이·를·을) and an ASCII value, as for password_ko",
		Example: "DB 접속 pw는 Zx8#kLm2Qp",
		re:      regexp.MustCompile(`(?i:\bpwd?)\s*(는|은|가|이|를|을|도)\s*["'` + "`" + `]?([\x21-\x7e]+)`), group: 2, formGroup: 1, check: assignedKO},
	{Name: "password_ko_assign", hints: []string{"비밀", "패스워드", "암호", "비번", "토큰", "키", "시크릿"}, Shape: "Korean: the same keywords then : or = and a value in any script (\"와이파이 비밀번호: 마포집wifi_7734\"), which must look like one",
		Example: "와이파이 비밀번호: 마포집wifi_7734",
		re:      regexp.MustCompile(`(비밀\s?번호|패스워드|암호|비번|토큰|(?i:api)\s?키|인증\s?키|시크릿)\s*([:=])\s*["'` + "`" + `]?([^\s"'` + "`" + `,;]+)`), group: 3, formGroup: 2, check: assignedKO},
	{Name: "card_number", minDigits: 13, Shape: "a payment card number: 13 to 19 digits (spaces or dashes between groups) that pass the Luhn check",
		Example: "card 4111 1111 1111 1111 exp 12/29",
		re:      regexp.MustCompile(`\b\d(?:[ \-]?\d){12,18}\b`), check: luhnValue, notInURL: true},
}

// Finding is one value Redact replaced.
type Finding struct {
	Pattern string // Pattern.Name
	Start   int    // byte offsets of the value in the original text
	End     int
}

// Result is a redacted text and what was replaced in it.
type Result struct {
	Text     string
	Findings []Finding
}

// Names is the distinct pattern names of the findings, in table order.
func (r Result) Names() []string {
	var out []string
	for _, p := range Patterns {
		for _, f := range r.Findings {
			if f.Pattern == p.Name {
				out = append(out, p.Name)
				break
			}
		}
	}
	return out
}

// Redact replaces every secret value in text with its placeholder. A text
// with none is returned as it was (no allocation beyond the scan).
func Redact(text string) Result {
	lower := strings.ToLower(text)
	digits := 0
	for i := 0; i < len(lower); i++ {
		if lower[i] >= '0' && lower[i] <= '9' {
			digits++
		}
	}
	var found []Finding
	taken := func(s, e int) bool {
		for _, f := range found {
			if s < f.End && f.Start < e {
				return true
			}
		}
		return false
	}
	scan := masked(text)
	for _, p := range Patterns {
		if !p.mayMatch(lower, digits) {
			continue
		}
		for _, m := range p.re.FindAllStringSubmatchIndex(scan, -1) {
			s, e := m[2*p.group], m[2*p.group+1]
			if s < 0 && p.alt > 0 {
				s, e = m[2*p.alt], m[2*p.alt+1]
			}
			if s < 0 {
				continue
			}
			v := strings.TrimRight(scan[s:e], ".?\x00")
			e = s + len(v)
			if v == "" || strings.HasPrefix(v, "[erased") || taken(s, e) {
				continue
			}
			form := ""
			if p.formGroup > 0 && m[2*p.formGroup] >= 0 {
				form = strings.TrimSpace(text[m[2*p.formGroup]:m[2*p.formGroup+1]])
			}
			if (p.notInURL || jwtShape.MatchString(v)) && inURL(text, s) {
				continue // a signed URL's grant (…?token=eyJ…), see Pattern.notInURL
			}
			if p.check != nil && !p.check(v, form) {
				continue
			}
			found = append(found, Finding{Pattern: p.Name, Start: s, End: e})
		}
	}
	if len(found) == 0 {
		return Result{Text: text}
	}
	slices.SortFunc(found, func(a, b Finding) int { return a.Start - b.Start })
	var b strings.Builder
	last := 0
	for _, f := range found {
		b.WriteString(text[last:f.Start])
		b.WriteString(Placeholder(placeholderType(f.Pattern)))
		last = f.End
	}
	b.WriteString(text[last:])
	return Result{Text: b.String(), Findings: found}
}

// jwtShape is a whole value shaped as a JSON Web Token.
var jwtShape = regexp.MustCompile(`^eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{10,}$`)

// inURL reports whether offset s of text lies in a URL: the word it is
// in (back to the last space) has a "://" before s.
func inURL(text string, s int) bool {
	start := strings.LastIndexAny(text[:s], " \t\n\r\"'<>(")
	return strings.Contains(text[start+1:s], "://")
}

// placeholderRe finds the placeholders already in a text.
var placeholderRe = regexp.MustCompile(`\[secret:[a-z_]+\]`)

// masked is text with each placeholder already in it overwritten by NUL
// bytes of the same length, so that offsets hold and redacting twice finds
// nothing new ("[secret:password]" reads as secret followed by ":").
func masked(text string) string {
	if !strings.Contains(text, "[secret:") {
		return text
	}
	return placeholderRe.ReplaceAllStringFunc(text, func(m string) string { return strings.Repeat("\x00", len(m)) })
}

// placeholderType is the type a placeholder shows: the Korean and URL
// forms of a password are passwords.
func placeholderType(name string) string {
	switch name {
	case "password_ko", "password_ko_assign", "password_quoted", "url_password", "basic_auth":
		return "password"
	}
	return name
}

// mayMatch is the cheap look before p's regexp: a hint in the lowercased
// text, or enough digits.
func (p *Pattern) mayMatch(lower string, digits int) bool {
	if p.minDigits > 0 {
		return digits >= p.minDigits
	}
	for _, h := range p.hints {
		if strings.Contains(lower, h) {
			return true
		}
	}
	return false
}

// placeholders are values that only say a value goes there.
var placeholders = map[string]bool{"xxx": true, "xxxx": true, "***": true, "****": true, "…": true, "...": true, "<redacted>": true,
	"none": true, "null": true, "empty": true, "required": true, "optional": true, "true": true, "false": true,
	"password": true, "passwd": true, "pass": true, "pw": true, "secret": true, "token": true, "your_password": true, "yourpassword": true}

// notPlaceholder: the value is no placeholder (a docs line's
// "user:password@host", a masked "********").
func notPlaceholder(v, _ string) bool {
	return !placeholders[strings.ToLower(v)] && !masking(v)
}

// masking: a value made only of mask characters (*, x, •, #).
func masking(v string) bool {
	return strings.Trim(v, "*xX•#·.") == ""
}

// assigned accepts the value of an English assignment: after = (or :=,
// =>) anything of 3+ characters that is no placeholder or variable; after
// "is" or ":" — prose, where the next word is often just a word ("the
// password is stored …") — only what looks like a secret: a digit or a
// symbol, or 12+ characters.
func assigned(v, form string) bool {
	lv := strings.ToLower(v)
	if len(v) < 3 || placeholders[lv] || masking(v) || strings.HasPrefix(v, "$") || strings.HasPrefix(v, "<") || strings.HasPrefix(v, "{") || strings.HasPrefix(v, "%") {
		return false
	}
	switch form {
	case "=", ":=", "=>":
		return true
	}
	return secretLooking(v, 12)
}

// assignedKO accepts the ASCII value after a Korean keyword.
func assignedKO(v, form string) bool {
	if len(v) < 4 || placeholders[strings.ToLower(v)] || masking(v) {
		return false
	}
	return secretLooking(v, 8)
}

// secretLooking: a digit, or a symbol other than closing punctuation, or
// at least long characters (not bytes: "1Password 해지하고" is a product
// and a verb, and 해지하고 is 4 characters in 12 bytes).
func secretLooking(v string, long int) bool {
	for _, r := range v {
		if unicode.IsDigit(r) || (unicode.IsPunct(r) || unicode.IsSymbol(r)) && !strings.ContainsRune(".,!?)]}'\"", r) {
			return true
		}
	}
	return utf8.RuneCountInString(v) >= long
}

// mixedToken: a token holds a digit (a word joined by hyphens does not).
func mixedToken(v, _ string) bool {
	return strings.ContainsAny(v, "0123456789")
}

// luhnValue accepts 13 to 19 digits that pass the Luhn check and are not
// one digit repeated.
func luhnValue(v, _ string) bool {
	var ds []int
	for _, r := range v {
		if r >= '0' && r <= '9' {
			ds = append(ds, int(r-'0'))
		}
	}
	if len(ds) < 13 || len(ds) > 19 {
		return false
	}
	same := true
	for _, d := range ds {
		same = same && d == ds[0]
	}
	return !same && Luhn(ds)
}

// Luhn reports whether the digits pass the Luhn (mod 10) check.
func Luhn(ds []int) bool {
	sum := 0
	for i := range ds {
		d := ds[len(ds)-1-i]
		if i%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}
