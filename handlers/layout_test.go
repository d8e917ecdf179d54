package handlers

import (
	"reflect"
	"testing"
)

func TestParseLayout(t *testing.T) {
	got, err := parseLayout("d67e,80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x11,41,13,2]}")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]rect{
		"%0": {left: 0, top: 0, width: 40, height: 24},
		"%1": {left: 41, top: 0, width: 39, height: 12},
		"%2": {left: 41, top: 13, width: 39, height: 11},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for _, bad := range []string{"", "b25f", "b25f,80x24,0,0", "b25f,80x24,0,0,2,", "b25f,80x24,0,0{40x24,0,0,0", "b25f,80x24,0,0{40x24,0,0,0;1}"} {
		if _, err := parseLayout(bad); err == nil {
			t.Errorf("parseLayout(%q) succeeded", bad)
		}
	}
}
