package tools

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestEveryToolHasAToolset(t *testing.T) {
	for _, tool := range Catalogue {
		if tool.Toolset == 0 || strings.HasPrefix(tool.Toolset.String(), "Toolset(") {
			t.Errorf("%s: toolset must be one of %v, got %v", tool.Name, ToolsetNames(), tool.Toolset)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a tool without a toolset did not panic")
		}
	}()
	saved := Catalogue
	defer func() { Catalogue = saved }()
	Catalogue = append(slices.Clone(saved), Tool{Name: "zero_toolset", Class: ReadOnly, World: Closed, bind: saved[0].bind})
	NewServer("test", nil, Destructive, All)
}

// seedTools are the four tools whose schemas are the fixed wire contract.
var seedTools = []string{"wait_for_text", "capture_since", "wait_for_exit", "wait_for_channel"}

func TestDefaultToolsetIsTheEverydayJobs(t *testing.T) {
	var names []string
	for _, tool := range Catalogue {
		if tool.Toolset == Default {
			names = append(names, tool.Name)
		}
	}
	if len(names) > 24 {
		t.Errorf("the default toolset has %d tools, want at most 24: %v", len(names), names)
	}
	everyday := append([]string{"run_shell_command", "run_program", "start_program", "send_keys", "paste_text",
		"capture_pane", "list_panes", "search_panes", "create_session", "split_window"}, seedTools...)
	for _, name := range everyday {
		if !slices.Contains(names, name) {
			t.Errorf("%s is not in the default toolset", name)
		}
	}
}

func TestParseSelection(t *testing.T) {
	offered := func(sel Selection) []string {
		var names []string
		for _, tool := range Catalogue {
			if sel.Offers(tool) {
				names = append(names, tool.Name)
			}
		}
		return names
	}
	def, err := ParseSelection("", "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := offered(def), offered(Selection{}); !slices.Equal(got, want) || slices.Contains(got, "swap_pane") {
		t.Errorf("empty --toolsets offers %v, want the default toolset %v", got, want)
	}
	all, _ := ParseSelection("all", "")
	if len(offered(all)) != len(Catalogue) {
		t.Errorf("--toolsets all offers %d tools, want %d", len(offered(all)), len(Catalogue))
	}
	one, _ := ParseSelection("default", "swap_pane, get_pane_info")
	if got := offered(one); len(got) != len(offered(def))+2 || !slices.Contains(got, "swap_pane") || !slices.Contains(got, "get_pane_info") {
		t.Errorf("--tools swap_pane,get_pane_info offers %v", got)
	}
	arrange, _ := ParseSelection("Arrange", "")
	if got := offered(arrange); slices.Contains(got, "run_shell_command") || !slices.Contains(got, "swap_pane") {
		t.Errorf("--toolsets arrange offers %v", got)
	}
	for _, c := range []struct{ toolsets, tools, want string }{
		{"default,layout", "", `unknown toolset "layout" in --toolsets; valid: default, inspect, arrange, config, buffers, all`},
		{"", "swap_panes", `unknown tool "swap_panes" in --tools; valid: break_pane, call_read_tools_batch,`},
	} {
		if _, err := ParseSelection(c.toolsets, c.tools); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("ParseSelection(%q, %q) = %v, want %s…", c.toolsets, c.tools, err, c.want)
		}
	}
}

func TestDescriptionsRoute(t *testing.T) {
	short := 0
	for _, tool := range Catalogue {
		if n := len([]rune(tool.Description)); n > 1000 {
			t.Errorf("%s: description of %d characters, want at most 1000", tool.Name, n)
		} else if n < 400 {
			short++
		}
	}
	if short*2 <= len(Catalogue) {
		t.Errorf("%d of %d descriptions are under 400 characters, want most", short, len(Catalogue))
	}
}

// TestDescriptionNumbers keeps limits out of descriptions unless they come
// from their constant: a number a description states must be listed here
// with where it comes from.
func TestDescriptionNumbers(t *testing.T) {
	allowed := map[string]string{
		"0": "row 0 is the top of the screen, as tmux numbers rows",
	}
	number := regexp.MustCompile(`\b\d[\d,.]*\b`)
	for _, tool := range append(slices.Clone(Catalogue), Tool{Name: "instructions", Description: Instructions}) {
		text := strings.NewReplacer("RE2", "", "%N", "", "@N", "", "$N", "").Replace(tool.Description)
		for _, n := range number.FindAllString(text, -1) {
			if _, ok := allowed[n]; !ok {
				t.Errorf("%s: the description states %s; take a limit from its constant (fmt.Sprint) and list it in this test", tool.Name, n)
			}
		}
	}
}
