package dev.llmload.twin.fit;

/**
 * Weighted linear least squares by the normal equations: minimises Σ wᵢ(yᵢ − xᵢ·β)². The design
 * matrices here have at most a handful of columns, so forming XᵀWX and solving it by Gaussian
 * elimination with partial pivoting is exact enough and cheap. Pure.
 */
final class LeastSquares {

    private LeastSquares() {}

    /**
     * The coefficients, or null when XᵀWX is singular (a column is a combination of the others
     * over the rows given, so the data cannot tell them apart).
     *
     * @param x       rows of the design matrix, all of one length k
     * @param y       the observations
     * @param weights a non-negative weight per row
     * @param rows    the row indices to use (repeats allowed: the bootstrap draws with replacement)
     */
    static double[] solve(double[][] x, double[] y, double[] weights, int[] rows) {
        int k = x[0].length;
        // Columns differ by orders of magnitude (1, a batch size, P²): each is divided by its root
        // mean square first, so that the singularity test below compares like with like.
        double[] scale = new double[k];
        for (int r : rows) {
            for (int i = 0; i < k; i++) {
                scale[i] += x[r][i] * x[r][i];
            }
        }
        for (int i = 0; i < k; i++) {
            scale[i] = Math.sqrt(scale[i] / Math.max(1, rows.length));
            if (scale[i] == 0) {
                return null;
            }
        }
        double[][] a = new double[k][k + 1];
        for (int r : rows) {
            double w = weights[r];
            double[] xr = x[r];
            for (int i = 0; i < k; i++) {
                double wxi = w * xr[i] / scale[i];
                for (int j = i; j < k; j++) {
                    a[i][j] += wxi * xr[j] / scale[j];
                }
                a[i][k] += wxi * y[r];
            }
        }
        for (int i = 0; i < k; i++) {
            for (int j = 0; j < i; j++) {
                a[i][j] = a[j][i];
            }
        }
        double[] beta = gauss(a, k);
        if (beta != null) {
            for (int i = 0; i < k; i++) {
                beta[i] /= scale[i];
            }
        }
        return beta;
    }

    /** Solves the k×k system held in the augmented matrix {@code a} in place; null when singular. */
    private static double[] gauss(double[][] a, int k) {
        double scale = 0;
        for (int i = 0; i < k; i++) {
            scale = Math.max(scale, Math.abs(a[i][i]));
        }
        for (int col = 0; col < k; col++) {
            int pivot = col;
            for (int r = col + 1; r < k; r++) {
                if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) {
                    pivot = r;
                }
            }
            if (!(Math.abs(a[pivot][col]) > 1e-9 * scale)) {
                return null;
            }
            double[] tmp = a[col];
            a[col] = a[pivot];
            a[pivot] = tmp;
            for (int r = 0; r < k; r++) {
                if (r != col) {
                    double f = a[r][col] / a[col][col];
                    for (int c = col; c <= k; c++) {
                        a[r][c] -= f * a[col][c];
                    }
                }
            }
        }
        double[] beta = new double[k];
        for (int i = 0; i < k; i++) {
            beta[i] = a[i][k] / a[i][i];
        }
        return beta;
    }
}
