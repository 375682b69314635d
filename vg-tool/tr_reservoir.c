/* tr_reservoir.c — Algorithm L (K.-H. Li, "Reservoir-sampling algorithms of time complexity
   O(n(1 + log(N/n)))", 1994), with the logarithm and exponential it needs written here: the
   tool has no libm. */

#include "pub_tool_basics.h"
#include "pub_tool_libcbase.h"
#include "pub_tool_libcprint.h"

#include "tr_reservoir.h"

#define LN2 0.69314718055994530942

static const double inverse_int[16] = {0,        1,        1.0 / 2,  1.0 / 3,  1.0 / 4,  1.0 / 5,
                                       1.0 / 6,  1.0 / 7,  1.0 / 8,  1.0 / 9,  1.0 / 10, 1.0 / 11,
                                       1.0 / 12, 1.0 / 13, 1.0 / 14, 1.0 / 15};

/* ln x for x > 0: x = m 2^e with m in [sqrt(1/2), sqrt(2)), ln m = 2 atanh(t), t = (m - 1) /
   (m + 1), |t| < 0.172, by 9 terms of its series (to 1e-14: the skips need far less). */
static double ln(double x)
{
   static const double inverse_odd[9] = {1.0,      1.0 / 3,  1.0 / 5,  1.0 / 7, 1.0 / 9,
                                         1.0 / 11, 1.0 / 13, 1.0 / 15, 1.0 / 17};
   union { double d; ULong u; } bits = {.d = x};
   Long e = (Long)((bits.u >> 52) & 0x7ff) - 1023;
   double m, t, t2, term, sum = 0;
   Int k;
   bits.u = (bits.u & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
   m = bits.d;
   if (m > 1.4142135623730951) {
      m /= 2;
      e++;
   }
   t = (m - 1) / (m + 1);
   t2 = t * t;
   term = t;
   for (k = 0; k < 9; k++) {
      sum += term * inverse_odd[k];
      term *= t2;
   }
   return 2 * sum + (double)e * LN2;
}

/* e^y for y <= 0 (all this file needs): y = k ln2 + f with f in (-ln2, 0], e^f by its series
   until a term no longer counts (16 terms at most; 4 for Algorithm L's tiny exponents). */
static double exp_neg(double y)
{
   union { double d; ULong u; } scale;
   Long k = (Long)(y / LN2);
   double f = y - (double)k * LN2, term = 1, sum = 1;
   Int i;
   if (k < -1000) return 0;
   for (i = 1; i < 16 && (term > 1e-17 || term < -1e-17); i++) {
      term *= f * inverse_int[i];
      sum += term;
   }
   scale.u = (ULong)(k + 1023) << 52;
   return sum * scale.d;
}

static double sqrt_of(double x)
{
   double g = x > 1 ? x : 1;
   Int i;
   if (x <= 0) return 0;
   for (i = 0; i < 200; i++) {
      double next = 0.5 * (g + x / g);
      if (next == g) break;
      g = next;
   }
   return g;
}

/* A uniform double in (0, 1). */
static double uniform(TrReservoir* res)
{
   ULong x = res->random;
   x ^= x >> 12;
   x ^= x << 25;
   x ^= x >> 27;
   res->random = x;
   return ((double)((x * 0x2545F4914F6CDD1DULL) >> 11) + 0.5) / 9007199254740992.0;
}

/* Algorithm L's step: the new W, and how many events to skip before the next one kept. */
static void draw_next(TrReservoir* res)
{
   double skip;
   res->w *= exp_neg(ln(uniform(res)) / (double)res->size);
   skip = ln(uniform(res)) / ln(1 - res->w);
   /* W so small that 1 - W is 1: no event of any run is kept again. */
   if (!(skip >= 0 && skip < 1e18)) skip = 1e18;
   res->next = res->seen + 1 + (ULong)skip;
}

ULong tr_reservoir_size_for(double z, double r, double fe)
{
   double n = 1 + z * z * (1 - fe) / (r * r * fe);
   ULong size = (ULong)n;
   if ((double)size < n) size++;
   return size < 2 ? 2 : size;
}

void tr_reservoir_init(TrReservoir* res, ULong size, ULong seed)
{
   VG_(memset)(res, 0, sizeof *res);
   res->size = size;
   res->next = 1;
   res->w = 1;
   res->random = seed * 0x9E3779B97F4A7C15ULL + 1;
}

Long tr_reservoir_keep(TrReservoir* res)
{
   if (res->filled < res->size) {
      res->next = res->seen + 1;
      if (res->filled + 1 == res->size) draw_next(res);
      return (Long)res->filled++;
   }
   draw_next(res);
   return (Long)(uniform(res) * (double)res->size);
}

double tr_reservoir_error(const TrReservoir* res, ULong c, double z)
{
   double n = (double)res->filled, p;
   if (res->seen <= res->filled || c == 0 || res->filled < 2) return 0;
   p = (double)c / n;
   return z * sqrt_of(p * (1 - p) / (n - 1)) / p;
}

void tr_reservoir_fixed6(HChar* out, double x)
{
   ULong micro = (ULong)(x * 1e6 + 0.5);
   VG_(sprintf)(out, "%llu.%06llu", micro / 1000000, micro % 1000000);
}
