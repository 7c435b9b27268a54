/* Calls the exported classifier from C: no Python, no MLIR.
 *
 *   cc main.c -I build -L build -lclassifier -Wl,-rpath,build -o classify && ./classify
 */
#include <stdio.h>

#include "classifier.h"

enum { BATCH = 4, FEATURES = 16, CLASSES = 10 };

int main(void) {
  float x[BATCH][FEATURES], probabilities[BATCH][CLASSES];
  for (int i = 0; i < BATCH; ++i)
    for (int j = 0; j < FEATURES; ++j)
      x[i][j] = ((i * FEATURES + j) % 7) * 0.25f - 0.75f;
  if (classifier(&x[0][0], &probabilities[0][0]) != 0) {
    fprintf(stderr, "classifier failed\n");
    return 1;
  }
  for (int i = 0; i < BATCH; ++i) {
    int best = 0;
    float sum = 0;
    for (int k = 0; k < CLASSES; ++k) {
      sum += probabilities[i][k];
      if (probabilities[i][k] > probabilities[i][best]) best = k;
    }
    printf("row %d: class %d p=%.6f (sum %.6f):", i, best, probabilities[i][best], sum);
    for (int k = 0; k < CLASSES; ++k) printf(" %.6f", probabilities[i][k]);
    printf("\n");
  }
  return 0;
}
