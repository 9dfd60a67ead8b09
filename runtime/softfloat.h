/* IEEE 754 binary64 arithmetic in integers, for the fp_* tapset functions
 * (tapsets/floatingpoint.stp): kernel code may not touch the FPU. A value
 * is its bit pattern in a u64 ("the 64 bit floating point stored in
 * long", as SystemTap 4.8 has it). Every operation rounds to nearest, ties
 * to even, as the hardware does; subnormals, infinities and NaNs behave as
 * IEEE says (a NaN result is the default quiet NaN). Freestanding C: the
 * host's unit tests (testsuite/unit/softfloat_test.cpp) check it against
 * the host's own double arithmetic. */
#ifndef STP_SOFTFLOAT_H
#define STP_SOFTFLOAT_H

#ifdef __KERNEL__
#include <linux/math64.h>
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stdint.h>
typedef uint64_t u64;
typedef uint32_t u32;
typedef int64_t s64;
#endif

#define STP_F64_NAN 0x7FF8000000000000ULL
#define STP_F64_INF 0x7FF0000000000000ULL
#define STP_F64_SIGN 0x8000000000000000ULL

/* An unpacked finite non-zero value: sig * 2^(e - 62), sig in [2^62, 2^63). */
struct stp_f64u {
	int sign;
	int e;
	u64 sig;
};

static inline int stp_f64_is_nan(u64 a)
{
	return (a & ~STP_F64_SIGN) > STP_F64_INF;
}

static inline int stp_f64_is_inf(u64 a)
{
	return (a & ~STP_F64_SIGN) == STP_F64_INF;
}

static inline int stp_f64_is_zero(u64 a)
{
	return (a & ~STP_F64_SIGN) == 0;
}

/* x >> n, with any bit shifted out kept as a 1 in bit 0. */
static inline u64 stp_shr_jam(u64 x, unsigned n)
{
	if (n == 0)
		return x;
	if (n >= 64)
		return x != 0;
	return (x >> n) | ((x << (64 - n)) != 0);
}

static inline struct stp_f64u stp_f64_unpack(u64 a)
{
	struct stp_f64u u;
	int be = (int)((a >> 52) & 0x7FF);
	u64 frac = a & 0xFFFFFFFFFFFFFULL;
	u.sign = (int)(a >> 63);
	if (be == 0) { /* subnormal: normalize */
		u.e = -1022;
		u.sig = frac << 10;
		while (!(u.sig & (1ULL << 62))) {
			u.sig <<= 1;
			u.e--;
		}
	} else {
		u.e = be - 1023;
		u.sig = (frac | (1ULL << 52)) << 10;
	}
	return u;
}

/* sig * 2^(e - 62), sig in [2^62, 2^63) with round bits below bit 10,
 * rounded to nearest even and packed (to infinity or a subnormal). */
static inline u64 stp_f64_round_pack(int sign, int e, u64 sig)
{
	u64 s = (u64)sign << 63, m, rest;
	int be = e + 1023;
	if (be <= 0) {
		sig = stp_shr_jam(sig, (unsigned)(1 - be));
		be = 0;
	}
	m = sig >> 10;
	rest = sig & 0x3FF;
	if (rest > 0x200 || (rest == 0x200 && (m & 1)))
		m++;
	if (be == 0) /* subnormal; a carry into bit 52 makes it the smallest normal */
		return s | m;
	if (m >> 53) {
		m >>= 1;
		be++;
	}
	if (be >= 0x7FF)
		return s | STP_F64_INF;
	return s | ((u64)be << 52) | (m & 0xFFFFFFFFFFFFFULL);
}

/* Shifts a non-zero sig left until bit 62 is set. */
static inline u64 stp_f64_normalize(u64 sig, int *e)
{
	while (!(sig & (1ULL << 62))) {
		sig <<= 1;
		(*e)--;
	}
	return sig;
}

static inline u64 stp_f64_from_i64(s64 v)
{
	int sign = v < 0, e = 62;
	u64 n = sign ? (u64)0 - (u64)v : (u64)v;
	if (!n)
		return 0;
	if (n >> 63) {
		n = stp_shr_jam(n, 1);
		e = 63;
	}
	n = stp_f64_normalize(n, &e);
	return stp_f64_round_pack(sign, e, n);
}

/* Magnitude sum or difference of two finite non-zero values. */
static inline u64 stp_f64_add_mags(struct stp_f64u a, struct stp_f64u b, int subtract)
{
	struct stp_f64u t;
	u64 sig;
	int e;
	if (a.e < b.e || (a.e == b.e && a.sig < b.sig)) {
		t = a;
		a = b;
		b = t;
		if (subtract)
			a.sign = !a.sign; /* b - a: the sign flips */
	}
	b.sig = stp_shr_jam(b.sig, (unsigned)(a.e - b.e > 64 ? 64 : a.e - b.e));
	e = a.e;
	if (!subtract) {
		sig = a.sig + b.sig; /* < 2^64 */
		if (sig >> 63) {
			sig = stp_shr_jam(sig, 1);
			e++;
		}
		return stp_f64_round_pack(a.sign, e, sig);
	}
	sig = a.sig - b.sig;
	if (!sig)
		return 0; /* x - x is +0 when rounding to nearest */
	sig = stp_f64_normalize(sig, &e);
	return stp_f64_round_pack(a.sign, e, sig);
}

static inline u64 stp_f64_add(u64 a, u64 b)
{
	struct stp_f64u ua, ub;
	if (stp_f64_is_nan(a) || stp_f64_is_nan(b))
		return STP_F64_NAN;
	if (stp_f64_is_inf(a) || stp_f64_is_inf(b)) {
		if (stp_f64_is_inf(a) && stp_f64_is_inf(b) && ((a ^ b) >> 63))
			return STP_F64_NAN;
		return stp_f64_is_inf(a) ? a : b;
	}
	if (stp_f64_is_zero(a))
		return stp_f64_is_zero(b) ? (a & b) : b; /* -0 + -0 = -0, else +0 */
	if (stp_f64_is_zero(b))
		return a;
	ua = stp_f64_unpack(a);
	ub = stp_f64_unpack(b);
	if (ua.sign == ub.sign)
		return stp_f64_add_mags(ua, ub, 0);
	ub.sign = ua.sign;
	return stp_f64_add_mags(ua, ub, 1);
}

static inline u64 stp_f64_sub(u64 a, u64 b)
{
	return stp_f64_add(a, stp_f64_is_nan(b) ? b : b ^ STP_F64_SIGN);
}

/* The 128-bit product of two u64s: *hi and the low half returned. */
static inline u64 stp_mul64(u64 a, u64 b, u64 *hi)
{
	u64 a0 = (u32)a, a1 = a >> 32, b0 = (u32)b, b1 = b >> 32;
	u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	u64 mid = (p00 >> 32) + (u32)p01 + (u32)p10;
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return (mid << 32) | (u32)p00;
}

static inline u64 stp_f64_mul(u64 a, u64 b)
{
	int sign = (int)((a ^ b) >> 63);
	struct stp_f64u ua, ub;
	u64 hi, lo, sig;
	int e;
	if (stp_f64_is_nan(a) || stp_f64_is_nan(b))
		return STP_F64_NAN;
	if (stp_f64_is_inf(a) || stp_f64_is_inf(b)) {
		if (stp_f64_is_zero(a) || stp_f64_is_zero(b))
			return STP_F64_NAN;
		return ((u64)sign << 63) | STP_F64_INF;
	}
	if (stp_f64_is_zero(a) || stp_f64_is_zero(b))
		return (u64)sign << 63;
	ua = stp_f64_unpack(a);
	ub = stp_f64_unpack(b);
	/* (sig_a >> 10) * (sig_b >> 10) in [2^104, 2^106) */
	lo = stp_mul64(ua.sig >> 10, ub.sig >> 10, &hi);
	e = ua.e + ub.e;
	if (hi >> 41) { /* >= 2^105 */
		sig = (hi << 21) | (lo >> 43) | ((lo << 21) != 0);
		e++;
	} else {
		sig = (hi << 22) | (lo >> 42) | ((lo << 22) != 0);
	}
	return stp_f64_round_pack(sign, e, sig);
}

static inline u64 stp_f64_div(u64 a, u64 b)
{
	int sign = (int)((a ^ b) >> 63), i, e;
	struct stp_f64u ua, ub;
	u64 r, d, q = 0;
	if (stp_f64_is_nan(a) || stp_f64_is_nan(b))
		return STP_F64_NAN;
	if (stp_f64_is_inf(a))
		return stp_f64_is_inf(b) ? STP_F64_NAN : ((u64)sign << 63) | STP_F64_INF;
	if (stp_f64_is_inf(b))
		return (u64)sign << 63;
	if (stp_f64_is_zero(b))
		return stp_f64_is_zero(a) ? STP_F64_NAN : ((u64)sign << 63) | STP_F64_INF;
	if (stp_f64_is_zero(a))
		return (u64)sign << 63;
	ua = stp_f64_unpack(a);
	ub = stp_f64_unpack(b);
	r = ua.sig >> 10;
	d = ub.sig >> 10;
	e = ua.e - ub.e;
	if (r < d) {
		r <<= 1;
		e--;
	}
	for (i = 62; i >= 0; i--) { /* quotient bits 62..0: in [2^62, 2^63) */
		if (r >= d) {
			r -= d;
			q |= 1ULL << i;
		}
		r <<= 1;
	}
	return stp_f64_round_pack(sign, e, q | (r != 0));
}

static inline u64 stp_f64_sqrt(u64 a)
{
	struct stp_f64u u;
	u64 m, hi, lo, res = 0, rem_hi = 0, rem_lo = 0;
	int i, e;
	if (stp_f64_is_nan(a))
		return STP_F64_NAN;
	if (stp_f64_is_zero(a))
		return a;
	if (a >> 63)
		return STP_F64_NAN;
	if (stp_f64_is_inf(a))
		return a;
	u = stp_f64_unpack(a);
	m = u.sig >> 10; /* [2^52, 2^53) */
	e = u.e;
	if (e & 1) {
		m <<= 1;
		e--;
	}
	/* the root of m * 2^72 (hi:lo, 126 bits) is in [2^62, 2^63) */
	hi = m << 8;
	lo = 0;
	for (i = 0; i < 64; i++) {
		/* bring down the next two bits of hi:lo */
		u64 two = (i < 32) ? (hi >> (62 - 2 * i)) & 3 : (lo >> (62 - 2 * (i - 32))) & 3;
		u64 t_hi, t_lo;
		rem_hi = (rem_hi << 2) | (rem_lo >> 62);
		rem_lo = (rem_lo << 2) | two;
		/* trial = res * 4 + 1 (128 bits) */
		t_hi = res >> 62;
		t_lo = (res << 2) | 1;
		if (rem_hi > t_hi || (rem_hi == t_hi && rem_lo >= t_lo)) {
			u64 borrow = rem_lo < t_lo;
			rem_lo -= t_lo;
			rem_hi -= t_hi + borrow;
			res = (res << 1) | 1;
		} else {
			res <<= 1;
		}
	}
	return stp_f64_round_pack(0, e / 2, res | ((rem_hi | rem_lo) != 0));
}

/* An exact integer n * 2^k (n != 0, |n| < 2^63) packed. */
static inline u64 stp_f64_from_scaled(int sign, u64 n, int k)
{
	int e = 62 + k;
	n = stp_f64_normalize(n, &e);
	return stp_f64_round_pack(sign, e, n);
}

/* IEEE remainder: a - n * b, n the integer nearest a / b (ties to even). */
static inline u64 stp_f64_rem(u64 a, u64 b)
{
	struct stp_f64u ua, ub;
	u64 A, B, r;
	int q_odd = 0, sign, d;
	if (stp_f64_is_nan(a) || stp_f64_is_nan(b) || stp_f64_is_inf(a) || stp_f64_is_zero(b))
		return STP_F64_NAN;
	if (stp_f64_is_inf(b) || stp_f64_is_zero(a))
		return a;
	ua = stp_f64_unpack(a);
	ub = stp_f64_unpack(b);
	A = ua.sig >> 10;
	B = ub.sig >> 10;
	sign = ua.sign;
	if (ua.e < ub.e) {
		d = ub.e - ua.e;
		if (d > 1)
			return a; /* |a| < |b| / 2 */
		/* units of 2^(ea - 52): |a| = A, |b| = 2B */
		B <<= 1;
		if (2 * A > B) /* n = 1 */
			return stp_f64_from_scaled(!sign, B - A, ua.e - 52);
		return a;
	}
	/* units of 2^(eb - 52): |a| = A * 2^(ea - eb), |b| = B */
	r = A;
	if (r >= B) {
		r -= B;
		q_odd = 1;
	} else {
		q_odd = 0;
	}
	for (d = ua.e - ub.e; d > 0; d--) {
		r <<= 1;
		q_odd = 0;
		if (r >= B) {
			r -= B;
			q_odd = 1;
		}
	}
	if (2 * r > B || (2 * r == B && q_odd)) {
		r = B - r;
		sign = !sign;
	}
	if (!r)
		return (u64)ua.sign << 63;
	return stp_f64_from_scaled(sign, r, ub.e - 52);
}

/* a == b, a < b, a <= b: false with a NaN; -0 == +0. */
static inline int stp_f64_eq(u64 a, u64 b)
{
	if (stp_f64_is_nan(a) || stp_f64_is_nan(b))
		return 0;
	return a == b || (stp_f64_is_zero(a) && stp_f64_is_zero(b));
}

static inline int stp_f64_lt(u64 a, u64 b)
{
	int sa = (int)(a >> 63), sb = (int)(b >> 63);
	if (stp_f64_is_nan(a) || stp_f64_is_nan(b))
		return 0;
	if (stp_f64_is_zero(a) && stp_f64_is_zero(b))
		return 0;
	if (sa != sb)
		return sa;
	return sa ? a > b : a < b;
}

static inline int stp_f64_le(u64 a, u64 b)
{
	return stp_f64_lt(a, b) || stp_f64_eq(a, b);
}

/* To an integer with a rounding mode (SoftFloat's numbers, as 4.8):
 * 0 nearest even, 1 toward zero, 2 down, 3 up, 4 nearest away from zero,
 * 6 to odd; others are 0. NaN and out of range give INT64_MIN (the x86
 * "integer indefinite"). */
static inline s64 stp_f64_to_i64(u64 a, int mode)
{
	struct stp_f64u u;
	u64 ip, frac, half;
	int shift, up = 0;
	if (stp_f64_is_nan(a) || stp_f64_is_inf(a))
		return (s64)STP_F64_SIGN;
	if (stp_f64_is_zero(a))
		return 0;
	u = stp_f64_unpack(a);
	if (u.e > 62)
		return (s64)STP_F64_SIGN; /* |a| >= 2^63: only -2^63 fits */
	shift = 62 - u.e;
	if (shift >= 64) { /* |a| < 1/4 */
		ip = 0;
		up = (mode == 2 && u.sign) || (mode == 3 && !u.sign) || mode == 6;
	} else {
		ip = u.sig >> shift;
		frac = shift ? u.sig & ((1ULL << shift) - 1) : 0;
		half = shift ? 1ULL << (shift - 1) : 0;
		switch (mode) {
		case 1: break;
		case 2: up = u.sign && frac; break;
		case 3: up = !u.sign && frac; break;
		case 4: up = shift && frac >= half; break;
		case 6: if (frac) ip |= 1; break;
		default: up = shift && (frac > half || (frac == half && (ip & 1))); break;
		}
	}
	ip += up;
	if (u.sign)
		return ip > (1ULL << 63) ? (s64)STP_F64_SIGN : (s64)(0 - ip);
	return ip >> 63 ? (s64)STP_F64_SIGN : (s64)ip;
}


/* A binary32 bit pattern widened (exactly) to binary64. */
static inline u64 stp_f32_to_f64(u32 a)
{
	u64 sign = (u64)(a >> 31) << 63;
	int be = (int)((a >> 23) & 0xFF), e;
	u64 frac = a & 0x7FFFFF;
	if (be == 0xFF)
		return frac ? STP_F64_NAN : sign | STP_F64_INF;
	if (be == 0) {
		if (!frac)
			return sign;
		e = -126 - 23 + 62; /* frac * 2^(-149) */
		frac = stp_f64_normalize(frac, &e);
		return stp_f64_round_pack((int)(sign >> 63), e, frac);
	}
	return sign | ((u64)(be - 127 + 1023) << 52) | (frac << 29);
}

/* Big numbers for the decimal conversions: little-endian 32-bit limbs,
 * enough for the fraction of the smallest subnormal times 10 (2^1130). */
#define STP_BIG_LIMBS 37

/* n = n * m + add; returns what overflowed. */
static inline u32 stp_big_muladd(u32 *n, u32 m, u32 add)
{
	u64 carry = add;
	int i;
	for (i = 0; i < STP_BIG_LIMBS; i++) {
		u64 v = (u64)n[i] * m + carry;
		n[i] = (u32)v;
		carry = v >> 32;
	}
	return (u32)carry;
}

/* n /= d; returns the remainder. */
static inline u32 stp_big_div(u32 *n, u32 d)
{
	u64 rem = 0;
	int i;
	for (i = STP_BIG_LIMBS - 1; i >= 0; i--) {
		u64 v = (rem << 32) | n[i];
#ifdef __KERNEL__
		u32 r; /* no 64-bit division on i686 but through div_u64_rem */
		n[i] = (u32)div_u64_rem(v, d, &r);
		rem = r;
#else
		n[i] = (u32)(v / d);
		rem = v % d;
#endif
	}
	return (u32)rem;
}

static inline int stp_big_zero(const u32 *n)
{
	int i;
	for (i = 0; i < STP_BIG_LIMBS; i++)
		if (n[i])
			return 0;
	return 1;
}

/* n = v << k (k < 32 * STP_BIG_LIMBS - 64). */
static inline void stp_big_set_shifted(u32 *n, u64 v, int k)
{
	int i;
	for (i = 0; i < STP_BIG_LIMBS; i++)
		n[i] = 0;
	for (i = 0; i < 64; i++)
		if ((v >> i) & 1)
			n[(i + k) / 32] |= 1U << ((i + k) % 32);
}

/* a as decimal text with `precision` digits after the point (at least
 * 1, at most 60), the last one rounded half up: "-12.250", "nan", "inf",
 * "-inf". 4.8's format; exact for every value. */
static inline void stp_f64_to_str(char *out, unsigned outlen, u64 a, int precision)
{
	char ip[330], fp[64];
	u32 big[STP_BIG_LIMBS];
	struct stp_f64u u;
	int n_ip = 0, i, k, K, bit;
	unsigned o = 0;
	if (!outlen)
		return;
	if (precision < 1)
		precision = 1;
	if (precision > 60)
		precision = 60;
	if (stp_f64_is_nan(a) || stp_f64_is_inf(a)) {
		const char *t = stp_f64_is_nan(a) ? "nan" : (a >> 63) ? "-inf" : "inf";
		for (; *t && o + 1 < outlen; t++)
			out[o++] = *t;
		out[o] = '\0';
		return;
	}
	if (stp_f64_is_zero(a)) {
		u.sign = (int)(a >> 63);
		u.e = 0;
		u.sig = 0;
	} else {
		u = stp_f64_unpack(a);
	}
	k = u.e - 52; /* a = M * 2^k, M = sig >> 10 */
	/* the integer part */
	if (k >= 0)
		stp_big_set_shifted(big, u.sig >> 10, k);
	else
		stp_big_set_shifted(big, -k < 64 ? (u.sig >> 10) >> -k : 0, 0);
	do {
		ip[n_ip++] = (char)('0' + stp_big_div(big, 10));
	} while (!stp_big_zero(big) && n_ip < (int)sizeof(ip));
	/* the fraction, numerator over 2^K, one digit more than asked */
	K = k < 0 ? -k : 0;
	if (K)
		stp_big_set_shifted(big, K < 64 ? (u.sig >> 10) & ((1ULL << K) - 1) : u.sig >> 10, 0);
	for (i = 0; i <= precision; i++) {
		int d = 0;
		if (K) {
			stp_big_muladd(big, 10, 0);
			/* the digit: the bits at K and above (less than 10) */
			for (bit = 3; bit >= 0; bit--) {
				int at = K + bit;
				if (big[at / 32] & (1U << (at % 32))) {
					d |= 1 << bit;
					big[at / 32] &= ~(1U << (at % 32));
				}
			}
		}
		fp[i] = (char)('0' + d);
	}
	/* round half up on the extra digit, carrying left, into the integer part */
	if (fp[precision] >= '5') {
		for (i = precision - 1; i >= 0 && fp[i] == '9'; i--)
			fp[i] = '0';
		if (i >= 0) {
			fp[i]++;
		} else {
			for (i = 0; i < n_ip && ip[i] == '9'; i++)
				ip[i] = '0';
			if (i < n_ip)
				ip[i]++;
			else if (n_ip < (int)sizeof(ip))
				ip[n_ip++] = '1';
		}
	}
	if (u.sign && o + 1 < outlen)
		out[o++] = '-';
	for (i = n_ip - 1; i >= 0 && o + 1 < outlen; i--)
		out[o++] = ip[i];
	if (o + 1 < outlen)
		out[o++] = '.';
	for (i = 0; i < precision && o + 1 < outlen; i++)
		out[o++] = fp[i];
	out[o] = '\0';
}

/* 10^n (n >= 0) by squaring: exact up to 10^22. */
static inline u64 stp_f64_pow10(int n)
{
	u64 p = stp_f64_from_i64(1), ten = stp_f64_from_i64(10);
	for (; n; n >>= 1) {
		if (n & 1)
			p = stp_f64_mul(p, ten);
		ten = stp_f64_mul(ten, ten);
	}
	return p;
}

/* Decimal text to binary64: [+-]digits[.digits][(e|E)[+-]digits], with
 * at least one digit, nothing around it. 0 and *out, or -1 when the text
 * is not a number. Correctly rounded when the value has at most 18
 * significant digits and a decimal exponent within 22 of them (the common
 * case: "3.14159", "-2.5e3"); within a few units in the last place else
 * (4.8's own conversion is approximate too). */
static inline int stp_f64_from_str(const char *s, u64 *out)
{
	u64 m = 0, f, p;
	int sign = 0, digits = 0, used = 0, exp10 = 0, esign = 1, ev = 0;
	if (*s == '+' || *s == '-')
		sign = *s++ == '-';
	for (; *s >= '0' && *s <= '9'; s++, digits++) {
		if (used < 18) {
			m = m * 10 + (u64)(*s - '0');
			if (m)
				used++;
		} else {
			exp10++;
		}
	}
	if (*s == '.') {
		for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
			if (used < 18) {
				m = m * 10 + (u64)(*s - '0');
				if (m)
					used++;
				exp10--;
			}
		}
	}
	if (!digits)
		return -1;
	if (*s == 'e' || *s == 'E') {
		s++;
		if (*s == '+' || *s == '-')
			esign = *s++ == '-' ? -1 : 1;
		if (!(*s >= '0' && *s <= '9'))
			return -1;
		for (; *s >= '0' && *s <= '9'; s++)
			if (ev < 100000)
				ev = ev * 10 + (*s - '0');
	}
	if (*s)
		return -1;
	exp10 += esign * ev;
	if (!m) {
		*out = (u64)sign << 63;
		return 0;
	}
	f = stp_f64_from_i64((s64)m);
	/* far below 1: divide in two steps, so that 10^|exp10| does not
	 * overflow before a subnormal result is reached */
	if (exp10 < -300) {
		f = stp_f64_div(f, stp_f64_pow10(300));
		exp10 += 300;
	}
	p = stp_f64_pow10(exp10 < 0 ? -exp10 : exp10);
	f = exp10 < 0 ? stp_f64_div(f, p) : stp_f64_mul(f, p);
	*out = f | ((u64)sign << 63);
	return 0;
}

#endif /* STP_SOFTFLOAT_H */
