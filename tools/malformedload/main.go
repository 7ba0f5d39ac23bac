// Command malformedload sends a server -requests malformed requests, -concurrency at a time, of
// five kinds in turn: a body just under the body limit of invalid JSON or (every other time) of
// JSON the contract refuses in every element, a body of 1 MiB (beyond
// it), a NUL in the Authorization header (sent raw: net/http refuses it before any handler), a
// path of 4 KB nobody serves, and an action with a body that is not JSON for a game that does not
// exist. Every request comes from an address of its own (X-Forwarded-For, for a server that trusts
// this client), so that the rate limits refuse none of them. It prints the statuses it got.
// scripts/memory.sh starts a server, runs it and reads the server's RSS.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"
)

func main() {
	base := flag.String("url", "http://127.0.0.1:8080", "the server")
	requests := flag.Int("requests", 12000, "malformed requests in all")
	concurrency := flag.Int("concurrency", 64, "requests at once")
	flag.Parse()
	u, err := url.Parse(*base)
	if err != nil {
		log.Fatal(err)
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: *concurrency}, Timeout: 30 * time.Second}
	invalid := bytes.Repeat([]byte("{\"game\":"), 60<<10/8)
	// Well-formed JSON the contract refuses, as large as the body limit lets it be: every element
	// is validated, and each failure described.
	unfit := []byte(`{"game":"primed","players":[` + strings.Repeat(`{"name":7},`, 60<<10/11-1) + `{"name":7}]}`)
	huge := bytes.Repeat([]byte("x"), 1<<20)
	longPath := "/v1/" + strings.Repeat("nothing/", 512)

	var mu sync.Mutex
	statuses := map[string]int{}
	count := func(s string) { mu.Lock(); statuses[s]++; mu.Unlock() }
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range *concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				addr := fmt.Sprintf("10.%d.%d.%d", i>>16&255, i>>8&255, i&255)
				if i%5 == 2 {
					count(raw(u.Host, addr))
					continue
				}
				var req *http.Request
				switch i % 5 {
				case 0:
					body := invalid
					if i%10 == 5 {
						body = unfit
					}
					req, _ = http.NewRequest(http.MethodPost, *base+"/v1/games", bytes.NewReader(body))
				case 1:
					req, _ = http.NewRequest(http.MethodPost, *base+"/v1/games", bytes.NewReader(huge))
				case 3:
					req, _ = http.NewRequest(http.MethodGet, *base+longPath, nil)
				case 4:
					req, _ = http.NewRequest(http.MethodPost, *base+"/v1/games/00000000-0000-4000-8000-000000000000/actions", strings.NewReader("not json"))
				}
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Forwarded-For", addr)
				resp, err := client.Do(req)
				if err != nil {
					count("error")
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				count(fmt.Sprint(resp.StatusCode))
			}
		}()
	}
	start := time.Now()
	for i := range *requests {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	keys := make([]string, 0, len(statuses))
	for k := range statuses {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	fmt.Printf("%d malformed requests in %.1f s:", *requests, time.Since(start).Seconds())
	for _, k := range keys {
		fmt.Printf(" %s×%d", k, statuses[k])
	}
	fmt.Println()
}

// raw sends a request with a NUL in its Authorization header on a connection of its own.
func raw(host, addr string) string {
	conn, err := net.DialTimeout("tcp", host, 10*time.Second)
	if err != nil {
		return "error"
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(conn, "GET /v1/games HTTP/1.1\r\nHost: %s\r\nX-Forwarded-For: %s\r\nAuthorization: Bearer pgs_a\x00b\r\n\r\n", host, addr)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		return "error"
	}
	resp.Body.Close()
	return fmt.Sprint(resp.StatusCode)
}
