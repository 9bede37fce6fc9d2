// Checks Latchkey's Merkle tree with Go's golang.org/x/mod/sumdb/tlog, an implementation of
// RFC 6962 written by someone else: reads JSON on stdin (the stored complete subtrees' hashes,
// inclusion and consistency proofs with the roots they are against), checks every proof with
// tlog.CheckRecord / tlog.CheckTree, rebuilds each proof and root with tlog.ProveRecord /
// tlog.ProveTree / tlog.TreeHash from the same stored hashes and compares, and prints the faults.
// Exits 1 when any check fails.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"golang.org/x/mod/sumdb/tlog"
)

type node struct {
	Level int    `json:"level"`
	Index int64  `json:"index"`
	Hash  []byte `json:"hash"`
}

type inclusion struct {
	Index    int64    `json:"index"`
	TreeSize int64    `json:"tree_size"`
	Data     []byte   `json:"data"`
	Root     []byte   `json:"root"`
	Hashes   [][]byte `json:"hashes"`
}

type consistency struct {
	From     int64    `json:"from"`
	To       int64    `json:"to"`
	FromRoot []byte   `json:"from_root"`
	ToRoot   []byte   `json:"to_root"`
	Hashes   [][]byte `json:"hashes"`
}

type input struct {
	Nodes       []node        `json:"nodes"`
	Inclusion   []inclusion   `json:"inclusion"`
	Consistency []consistency `json:"consistency"`
}

func hash(b []byte) tlog.Hash {
	var h tlog.Hash
	copy(h[:], b)
	return h
}

func hashes(list [][]byte) []tlog.Hash {
	out := make([]tlog.Hash, len(list))
	for i, b := range list {
		out[i] = hash(b)
	}
	return out
}

func same(a, b []tlog.Hash) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i][:], b[i][:]) {
			return false
		}
	}
	return true
}

func main() {
	var in input
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fmt.Println("bad input:", err)
		os.Exit(2)
	}
	stored := map[int64]tlog.Hash{}
	for _, n := range in.Nodes {
		stored[tlog.StoredHashIndex(n.Level, n.Index)] = hash(n.Hash)
	}
	reader := tlog.HashReaderFunc(func(indexes []int64) ([]tlog.Hash, error) {
		out := make([]tlog.Hash, len(indexes))
		for i, x := range indexes {
			h, ok := stored[x]
			if !ok {
				return nil, fmt.Errorf("stored hash %d missing", x)
			}
			out[i] = h
		}
		return out, nil
	})
	faults := 0
	fault := func(format string, args ...interface{}) {
		faults++
		fmt.Printf(format+"\n", args...)
	}
	for _, p := range in.Inclusion {
		root := hash(p.Root)
		if err := tlog.CheckRecord(hashes(p.Hashes), p.TreeSize, root, p.Index, tlog.RecordHash(p.Data)); err != nil {
			fault("CheckRecord %d in %d: %v", p.Index, p.TreeSize, err)
		}
		if th, err := tlog.TreeHash(p.TreeSize, reader); err != nil || th != root {
			fault("TreeHash %d differs (%v)", p.TreeSize, err)
		}
		if proof, err := tlog.ProveRecord(p.TreeSize, p.Index, reader); err != nil || !same(proof, hashes(p.Hashes)) {
			fault("ProveRecord %d in %d differs (%v)", p.Index, p.TreeSize, err)
		}
	}
	for _, p := range in.Consistency {
		if err := tlog.CheckTree(hashes(p.Hashes), p.To, hash(p.ToRoot), p.From, hash(p.FromRoot)); err != nil {
			fault("CheckTree %d -> %d: %v", p.From, p.To, err)
		}
		if proof, err := tlog.ProveTree(p.To, p.From, reader); err != nil || !same(proof, hashes(p.Hashes)) {
			fault("ProveTree %d -> %d differs (%v)", p.From, p.To, err)
		}
	}
	fmt.Printf("checked %d inclusion and %d consistency proofs, %d faults\n", len(in.Inclusion), len(in.Consistency), faults)
	if faults > 0 {
		os.Exit(1)
	}
}
