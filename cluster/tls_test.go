package cluster_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"github.com/gorl/gorl/cluster"
)

// testCA is a self-signed certificate authority made for one test.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newCA(t *testing.T, name string) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		IsCA:                  true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// serverCert returns a certificate for 127.0.0.1 signed by ca.
func (ca *testCA) serverCert(t *testing.T) tls.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2),
		Subject:      pkix.Name{CommonName: "127.0.0.1"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

func (ca *testCA) file(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(p, ca.pem, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTLSPassThrough: a NATS server on loopback that requires TLS, with a
// certificate from a CA made in the test, is joined through Options.CAFile
// naming that CA, and requests cross it; without the CA, or with another
// one, Start fails on the certificate.
func TestTLSPassThrough(t *testing.T) {
	ca := newCA(t, "gorl test CA")
	srv, err := server.NewServer(&server.Options{
		Host:       "127.0.0.1",
		Port:       server.RANDOM_PORT,
		NoLog:      true,
		NoSigs:     true,
		TLS:        true,
		TLSConfig:  &tls.Config{Certificates: []tls.Certificate{ca.serverCert(t)}, MinVersion: tls.VersionTLS12},
		TLSTimeout: 5,
	})
	if err != nil {
		t.Fatal(err)
	}
	srv.Start()
	defer srv.Shutdown()
	if !srv.ReadyForConnections(10 * time.Second) {
		t.Fatal("TLS server not ready")
	}
	url := srv.ClientURL()
	for _, tc := range []struct {
		name   string
		caFile string
		ok     bool
	}{
		{"the server's CA", ca.file(t), true},
		{"no CA", "", false},
		{"another CA", newCA(t, "other CA").file(t), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, err := cluster.Start(cluster.Options{URLs: []string{url}, CAFile: tc.caFile, Timeout: 3 * time.Second})
			if !tc.ok {
				if err == nil {
					n.Close()
					t.Fatal("Start succeeded without trusting the server's certificate")
				}
				if !errors.Is(err, cluster.ErrCluster) || !strings.Contains(err.Error(), "certificate") {
					t.Fatalf("error %v, want ErrCluster about the certificate", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer n.Close()
			if st, err := n.Conn().TLSConnectionState(); err != nil || !st.HandshakeComplete || len(st.VerifiedChains) == 0 {
				t.Errorf("the connection is not verified TLS: %v", err)
			}
			tr := n.Transport()
			stop, err := tr.Serve("gorl.tls.echo", func(req []byte, reply func([]byte) error) { reply(append([]byte("tls:"), req...)) })
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			if err := tr.Flush(ctxFor(t, 5*time.Second)); err != nil {
				t.Fatal(err)
			}
			got, err := tr.Request(ctxFor(t, 5*time.Second), "gorl.tls.echo", []byte("hi"))
			if err != nil || string(got) != "tls:hi" {
				t.Fatalf("reply %q, %v; want %q", got, err, "tls:hi")
			}
		})
	}
}
