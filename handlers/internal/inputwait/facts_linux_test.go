package inputwait

import "testing"

func TestParseStat(t *testing.T) {
	st, err := parseStat([]byte("4242 (my (odd) prog) S 1 4242 4242 34819 4300 4194304 1 0 0 0 7 3 0 0 20 0 1 0 100 0 0"))
	if err != nil {
		t.Fatal(err)
	}
	if st.comm != "my (odd) prog" || st.state != Sleeping || st.pgrp != 4242 || st.ttyNr != 34819 || st.tpgid != 4300 || st.utime != 7 || st.stime != 3 {
		t.Errorf("parseStat = %+v", st)
	}
}
