package tmuxctl

import "testing"

// TestUndoDollarEscapes checks the inverse of what tmux 3.4 prints: a
// backslash before "$" and a letter, "_" or "{"; a backslash of the value
// itself stays.
func TestUndoDollarEscapes(t *testing.T) {
	for printed, value := range map[string]string{
		`\$HOME`:          `$HOME`,
		`a \${x} b`:       `a ${x} b`,
		`\$_`:             `$_`,
		`\\$HOME`:         `\$HOME`,
		`$1 a$ $ \$`:      `$1 a$ $ \$`,
		`\$A\$B`:          `$A$B`,
		`no dollars \n \`: `no dollars \n \`,
	} {
		if got := undoDollarEscapes(printed); got != value {
			t.Errorf("undoDollarEscapes(%q) = %q, want %q", printed, got, value)
		}
	}
}
